"""thousand: a high-throughput simulator and strategy lab for the card game Thousand."""
__version__ = "0.1.0"

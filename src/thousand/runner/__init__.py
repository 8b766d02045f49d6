"""The runner: chunks of work, their seeds, the workers that compute them, the files they fill.

Every parallel loop of the tool goes through these layers (``docs/runner.md``):

- :mod:`.seeding` -- one root seed per run; chunk ``k``'s stream and, for paired
  comparisons, one stream per game (``unit_seed(seed, chunk, game)``); chunk bounds that
  never depend on the number of workers;
- :mod:`.pool` -- loky processes, threads or a Dask cluster behind one
  :func:`~.pool.run_tasks`; Ctrl-C, dying workers, polars' thread pools;
- :mod:`.store` -- a directory of atomically written chunk files and the
  ``metadata.json`` that lets a run be resumed and read back;
- :mod:`.chunks` -- what a chunk of deals or games is: the kernel's columns on the
  chunk's stream (written by the worker) or on unit streams (reduced by the worker).

Its users: :mod:`thousand.simulate` (``simulate``, ``games``: chunk streams into a
store), ``thousand.analysis.compare`` (unit streams, reduced in the workers, in order)
and ``thousand.analysis.thresholds`` (the forced-declarer hands: chunk streams into a
store the report resumes).
"""

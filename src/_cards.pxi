# Card-mask helpers: 24-bit masks, bit = 6*suit + rank (9 J Q K 10 A).
# Included by _fastdeal.pyx; everything is inline, nogil and table driven.

cdef extern from *:
    """
    /* 1 when counting uses the CPU's instruction: x86 built with popcnt (setup.py,
       where numpy requires it), or another architecture (the builtin is its own) */
    #if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
    #define TD_HW_POPCOUNT 1
    #else
    #define TD_HW_POPCOUNT 0
    #endif
    #if TD_HW_POPCOUNT
    static inline int td_popcount(uint32_t x) { return __builtin_popcount(x); }
    #else
    /* SWAR popcount: a portable x86 build does not assume the popcnt instruction */
    static inline int td_popcount(uint32_t x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    #endif
    /* 0 when the build uses popcnt (setup.py: where numpy requires it) and this CPU
       lacks it; checked before anything in the module runs */
    static int td_cpu_supported(void) {
    #if defined(__POPCNT__) && (defined(__x86_64__) || defined(__i386__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt");
    #else
        return 1;
    #endif
    }
    static inline int td_lowbit(uint32_t x) { return __builtin_ctz(x); }
    static inline int td_highbit(uint32_t x) { return 31 - __builtin_clz(x); }
    """
    int TD_HW_POPCOUNT
    int td_popcount(uint32_t x) nogil
    int td_cpu_supported()
    int td_lowbit(uint32_t x) nogil
    int td_highbit(uint32_t x) nogil
if not td_cpu_supported():
    raise ImportError("this build of the kernel needs a CPU with the POPCNT instruction; "
                      "rebuild it for this one: make clean && THOUSAND_PORTABLE=1 make build")

cdef enum:
    FULL_DECK = 0xFFFFFF
    SUIT_BITS = 0x041041      # bit 6*s for every suit (the nine plane)
    NINES = 0x041041
    JACKS = 0x082082
    QUEENS = 0x104104
    KINGS = 0x208208
    TENS = 0x410410
    ACES = 0x820820

cdef int32_t RANK_POINTS_C[6]
RANK_POINTS_C[:] = [0, 2, 3, 4, 10, 11]
cdef int32_t MARRIAGE_VALUE[4]
MARRIAGE_VALUE[:] = [40, 60, 80, 100]
cdef int32_t CARD_POINTS_C[24]        # by card number: the rank's points
CARD_POINTS_C[:] = [0, 2, 3, 4, 10, 11] * 4
cdef uint32_t SUIT_MASK_C[4]
SUIT_MASK_C[:] = [0x3F, 0x3F << 6, 0x3F << 12, 0x3F << 18]
cdef int32_t SUIT_OF[24]
SUIT_OF[:] = [0] * 6 + [1] * 6 + [2] * 6 + [3] * 6
cdef uint32_t RANK_PLANE_C[6]
RANK_PLANE_C[:] = [NINES, JACKS, QUEENS, KINGS, TENS, ACES]

# Points of the six cards of one suit, indexed by the 6-bit suit pattern.
cdef int32_t SUIT_POINTS[64]
# Sum and max of marriage values for a 4-bit "suits with K and Q" pattern.
cdef int32_t MARRIAGE_SUM[16]
cdef int32_t MARRIAGE_MAX[16]


cdef void _init_tables():
    cdef int i, r, s
    for i in range(64):
        SUIT_POINTS[i] = 0
        for r in range(6):
            if i >> r & 1:
                SUIT_POINTS[i] += RANK_POINTS_C[r]
    for i in range(16):
        MARRIAGE_SUM[i] = 0
        MARRIAGE_MAX[i] = 0
        for s in range(4):
            if i >> s & 1:
                MARRIAGE_SUM[i] += MARRIAGE_VALUE[s]
                MARRIAGE_MAX[i] = MARRIAGE_VALUE[s]


_init_tables()


cdef inline int32_t card_points_c(uint32_t m) noexcept nogil:
    return (SUIT_POINTS[m & 0x3F] + SUIT_POINTS[(m >> 6) & 0x3F]
            + SUIT_POINTS[(m >> 12) & 0x3F] + SUIT_POINTS[(m >> 18) & 0x3F])


cdef inline uint32_t marriage_bits(uint32_t m) noexcept nogil:
    """Bit 6*s set for every suit s whose K and Q are both in m."""
    return (m >> 2) & (m >> 3) & SUIT_BITS


cdef inline int32_t bits_to_suits(uint32_t b) noexcept nogil:
    """A mask with bits only at 6*s (one per suit) as a 4-bit suit pattern."""
    # one multiply gathers bits 0, 6, 12, 18 at bits 15..18 (no two partial products
    # meet, so nothing carries)
    return <int32_t>((b * <uint32_t>0x8421u) >> 15 & 15)


cdef inline uint32_t below_mask(uint32_t u) noexcept nogil:
    """Every card at or below some card of ``u`` in the same suit."""
    u |= (u >> 1) & 0x7DF7DF
    u |= (u >> 2) & 0x3CF3CF
    u |= (u >> 4) & 0x0C30C3
    return u


cdef inline uint32_t above_in_suit(int32_t c) noexcept nogil:
    """The cards of c's suit that beat c."""
    return SUIT_MASK_C[SUIT_OF[c]] & ~((<uint32_t>2 << c) - 1)


cdef inline int32_t marriage_index(uint32_t m) noexcept nogil:
    return bits_to_suits(marriage_bits(m))


cdef inline int32_t marriage_sum(uint32_t m) noexcept nogil:
    return MARRIAGE_SUM[marriage_index(m)]


cdef inline int32_t marriage_max(uint32_t m) noexcept nogil:
    return MARRIAGE_MAX[marriage_index(m)]


cdef inline int32_t count_of(uint32_t m, uint32_t plane) noexcept nogil:
    return td_popcount(m & plane)


cdef inline int32_t suit_of_c(int32_t c) noexcept nogil:
    return c // 6


cdef inline int32_t rank_of_c(int32_t c) noexcept nogil:
    return c % 6


cdef inline int32_t nth_card(uint32_t m, int32_t n) noexcept nogil:
    """The n-th card (0-based, ascending card number) of mask m."""
    cdef int32_t i
    for i in range(n):
        m &= m - 1
    return td_lowbit(m)


cdef inline uint32_t ranks_of(uint32_t m) noexcept nogil:
    """The ranks present in m, as a 6-bit pattern (bit r: some card of rank r)."""
    return (m | (m >> 6) | (m >> 12) | (m >> 18)) & 0x3F


cdef inline int32_t lowest_by_rank(uint32_t m) noexcept nogil:
    """Lowest rank first, then the lowest suit; -1 for an empty mask."""
    if not m:
        return -1
    return td_lowbit(m & (<uint32_t>NINES << td_lowbit(ranks_of(m))))


cdef inline int32_t highest_by_rank(uint32_t m) noexcept nogil:
    """Highest rank first, then the highest suit; -1 for an empty mask."""
    if not m:
        return -1
    return td_highbit(m & (<uint32_t>NINES << td_highbit(ranks_of(m))))


cdef inline int32_t round_defender(int32_t p) noexcept nogil:
    """Nearest multiple of 5: last digit 1, 2, 6, 7 down; 3, 4, 8, 9 up."""
    if p >= 0:
        return ((p + 2) // 5) * 5
    return -(((-p) + 2) // 5) * 5

"""The hot path: least deadwood, and least deadwood after a discard, on masks."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from ginrules.melds.lanes import (
    EVERY_SUIT,
    NO_RUNS,
    Lanes,
    every_choice,
    lane_bits,
    lane_tables,
    lanes_of,
    neighbours,
)
from ginrules.melds.model import CLASSIC_ACES, AceRule

# --- deadwood on masks (the hot path) --------------------------------------
#
# Which sets to take is the only search. A rank held three or four times none
# of whose cards can run is always taken as a set. The others (*contested*)
# are taken as a whole set or left out, every subset of them in turn, from all
# to none; a contested rank held four times may also be taken as three,
# sparing one card that can run. An 11-card hand has at most three contested
# ranks, most hands none or one.


class MaskScore(Protocol):
    """A number for the hand in a mask, under this scorer's ace rule or another."""

    def __call__(self, mask: int, other: AceRule | None = None, /) -> int: ...


@dataclass(frozen=True)
class MeldScorer:
    """Fast deadwood functions on masks, for one ace rule (see :func:`scorer`)."""

    rule: AceRule
    #: Least deadwood of the hand in a mask, counting every card.
    deadwood: MaskScore
    #: Least deadwood left after discarding one card of the hand in a mask.
    best_discard_deadwood: MaskScore
    #: ``draw_outlook(hand, draws, limit)``: over the cards of the mask ``draws``,
    #: the sum of best_discard_deadwood(hand | card), and how many of those are
    #: ``limit`` or less (the look-ahead of a player choosing what to keep).
    draw_outlook: Callable[[int, int, int], tuple[int, int]]
    #: For each card of a hand (by its one-bit mask): the least deadwood without it.
    discard_outcomes: Callable[[int], dict[int, int]]


@functools.cache
def scorer(rule: AceRule) -> MeldScorer:
    """The fast deadwood functions for an ace rule, built once and kept."""
    tables = lane_tables(rule)
    table = tables.deadwood
    gain = tables.gain
    runnable = tables.runnable

    def deadwood(mask: int, other: AceRule | None = None) -> int:
        """Least deadwood of the hand in ``mask``, counting every card (under
        the ``other`` ace rule when one is given)."""
        if other is not None and other is not rule and other != rule:
            return scorer(other).deadwood(mask)
        a = mask & 0x1FFF
        b = mask >> 16 & 0x1FFF
        c = mask >> 32 & 0x1FFF
        d = mask >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        if not sets:
            return table[a] + table[b] + table[c] + table[d]
        if sets & (sets - 1):
            can_run = (runnable[a], runnable[b], runnable[c], runnable[d])
            contested = sets & (can_run[0] | can_run[1] | can_run[2] | can_run[3])
            if contested != sets:
                free = ~(sets ^ contested)
                a &= free
                b &= free
                c &= free
                d &= free
            if contested & (contested - 1):
                return least_deadwood(a, b, c, d, contested, can_run)
            if not contested:
                return table[a] + table[b] + table[c] + table[d]
            sets = contested
        # One rank left to choose for, by far the commonest case: take it
        # whole, leave it out, or (held four times) take three of it.
        keep = ~sets
        sa, sb, sc, sd = table[a & keep], table[b & keep], table[c & keep], table[d & keep]
        ta, tb, tc, td = table[a], table[b], table[c], table[d]
        best = sa + sb + sc + sd
        if ta + tb + tc + td < best:
            best = ta + tb + tc + td
        if a & b & c & d & sets:
            best = min(best, ta + sb + sc + sd, sa + tb + sc + sd)
            best = min(best, sa + sb + tc + sd, sa + sb + sc + td)
        return best

    def least_deadwood(a: int, b: int, c: int, d: int, contested: int, can_run: Lanes) -> int:
        """Least deadwood over every set choice among two or more contested ranks
        (``can_run``: the cards of each lane that can run, or more)."""
        quads = a & b & c & d & contested
        best = 1 << 30
        beyond_one = quads & (quads - 1)
        if beyond_one and not beyond_one & (beyond_one - 1):
            # Two sets of four: for each choice among the other contested ranks,
            # sixteen lookups price every way to take, spare or keep both.
            first = quads & -quads
            second = quads ^ first
            others = contested ^ quads
            subset = others
            while True:
                keep = ~subset
                best = min(best, two_fours(a & keep, b & keep, c & keep, d & keep, first, second))
                if not subset:
                    return best
                subset = (subset - 1) & others
        if quads & (quads - 1):
            for m in every_choice((a, b, c, d), contested, can_run):
                total = table[m & 0x1FFF] + table[m >> 16 & 0x1FFF]
                total += table[m >> 32 & 0x1FFF] + table[m >> 48]
                if total < best:
                    best = total
            return best
        subset = contested
        while True:
            keep = ~subset
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            total = table[w] + table[x] + table[y] + table[z]
            if total < best:
                best = total
            taken = subset & quads
            if taken:
                # One set of four taken: spare each card that can run in turn.
                if can_run[0] & taken and total - table[w] + table[w | taken] < best:
                    best = total - table[w] + table[w | taken]
                if can_run[1] & taken and total - table[x] + table[x | taken] < best:
                    best = total - table[x] + table[x | taken]
                if can_run[2] & taken and total - table[y] + table[y | taken] < best:
                    best = total - table[y] + table[y | taken]
                if can_run[3] & taken and total - table[z] + table[z | taken] < best:
                    best = total - table[z] + table[z | taken]
            if not subset:
                return best
            subset = (subset - 1) & contested

    def two_fours(a: int, b: int, c: int, d: int, first: int, second: int) -> int:
        """Least deadwood of lanes holding two ranks four times each, over
        every way to take each as a set of four, take three of it (sparing one
        card in any lane) or leave it out."""
        both = ~(first | second)
        only_first = ~second
        only_second = ~first
        # Per lane: neither rank kept (n), the first only (f), the second only (s), both.
        an, af, as_, ab = table[a & both], table[a & only_first], table[a & only_second], table[a]
        bn, bf, bs, bb = table[b & both], table[b & only_first], table[b & only_second], table[b]
        cn, cf, cs, cb = table[c & both], table[c & only_first], table[c & only_second], table[c]
        dn, df, ds, db = table[d & both], table[d & only_first], table[d & only_second], table[d]
        none = an + bn + cn + dn
        firsts = af + bf + cf + df
        seconds = as_ + bs + cs + ds
        # Sparing one card of the first (f1..), of the second (s1..), or of both
        # in one lane, the other taken; or one of each in two different lanes.
        f1, f2, f3, f4 = af - an, bf - bn, cf - cn, df - dn
        s1, s2, s3, s4 = as_ - an, bs - bn, cs - cn, ds - dn
        spared = min(
            f1, f2, f3, f4, s1, s2, s3, s4, ab - an, bb - bn, cb - cn, db - dn,
            f1 + s2, f1 + s3, f1 + s4, f2 + s1, f2 + s3, f2 + s4,
            f3 + s1, f3 + s2, f3 + s4, f4 + s1, f4 + s2, f4 + s3,
        )  # fmt: skip
        return min(
            none,
            firsts,
            seconds,
            ab + bb + cb + db,
            none + spared,
            # One kept whole, one card of the other spared.
            firsts + min(ab - af, bb - bf, cb - cf, db - df),
            seconds + min(ab - as_, bb - bs, cb - cs, db - ds),
        )

    def best_discard_deadwood(mask: int, other: AceRule | None = None) -> int:
        """Least deadwood left after discarding one card of the hand in
        ``mask`` (under the ``other`` ace rule when one is given)."""
        if other is not None and other is not rule and other != rule:
            return scorer(other).best_discard_deadwood(mask)
        # Discarding the card that saves the most leaves an arrangement's
        # deadwood less that saving, and no discard does better: the answer is
        # the least (deadwood - the largest saving of one lane) over arrangements.
        a = mask & 0x1FFF
        b = mask >> 16 & 0x1FFF
        c = mask >> 32 & 0x1FFF
        d = mask >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        can_run = NO_RUNS
        if sets & (sets - 1):
            can_run = (runnable[a], runnable[b], runnable[c], runnable[d])
            contested = sets & (can_run[0] | can_run[1] | can_run[2] | can_run[3])
            if contested != sets:
                free = ~(sets ^ contested)
                a &= free
                b &= free
                c &= free
                d &= free
                sets = contested
        ta, tb, tc, td = table[a], table[b], table[c], table[d]
        ga, gb, gc, gd = gain[a], gain[b], gain[c], gain[d]
        best = ta + tb + tc + td - max(ga, gb, gc, gd)
        if sets & (sets - 1):
            best = least_discard(a, b, c, d, sets, can_run, best)
        elif sets:
            keep = ~sets
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            sa, sb, sc, sd = table[w], table[x], table[y], table[z]
            ha, hb, hc, hd = gain[w], gain[x], gain[y], gain[z]
            best = min(best, sa + sb + sc + sd - max(ha, hb, hc, hd))
            if a & b & c & d & sets:
                best = min(
                    best,
                    ta + sb + sc + sd - max(ga, hb, hc, hd),
                    sa + tb + sc + sd - max(ha, gb, hc, hd),
                    sa + sb + tc + sd - max(ha, hb, gc, hd),
                    sa + sb + sc + td - max(ha, hb, hc, gd),
                )
        # A fully melded hand whose size is not a multiple of three has a
        # four-card meld to discard from; otherwise every discard breaks a meld.
        if best == 0 and mask.bit_count() % 3 == 0 and deadwood(mask) == 0:
            return min(deadwood(mask & ~(1 << i)) for i in range(64) if mask >> i & 1)
        return best

    def least_discard(
        a: int, b: int, c: int, d: int, contested: int, can_run: Lanes, best: int
    ) -> int:
        """best_discard_deadwood over every set choice among two or more contested ranks."""
        quads = a & b & c & d & contested
        if quads & (quads - 1):
            for m in every_choice((a, b, c, d), contested, can_run):
                w, x, y, z = m & 0x1FFF, m >> 16 & 0x1FFF, m >> 32 & 0x1FFF, m >> 48
                total = table[w] + table[x] + table[y] + table[z]
                total -= max(gain[w], gain[x], gain[y], gain[z])
                if total < best:
                    best = total
            return best
        subset = contested
        while subset:
            keep = ~subset
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            total = table[w] + table[x] + table[y] + table[z]
            gw, gx, gy, gz = gain[w], gain[x], gain[y], gain[z]
            if total - max(gw, gx, gy, gz) < best:
                best = total - max(gw, gx, gy, gz)
            taken = subset & quads
            if taken:
                # One set of four taken: spare each card that can run in turn.
                if can_run[0] & taken:
                    spared = total - table[w] + table[w | taken]
                    best = min(best, spared - max(gain[w | taken], gx, gy, gz))
                if can_run[1] & taken:
                    spared = total - table[x] + table[x | taken]
                    best = min(best, spared - max(gw, gain[x | taken], gy, gz))
                if can_run[2] & taken:
                    spared = total - table[y] + table[y | taken]
                    best = min(best, spared - max(gw, gx, gain[y | taken], gz))
                if can_run[3] & taken:
                    spared = total - table[z] + table[z | taken]
                    best = min(best, spared - max(gw, gx, gy, gain[z | taken]))
            subset = (subset - 1) & contested
        return best

    near = neighbours()
    cards_of = lane_bits()

    def draw_outlook(hand: int, draws: int, limit: int) -> tuple[int, int]:
        # A drawn card of a rank the hand holds at most twice leaves the hand's
        # sets as they are and changes only its own lane, or (a pair's third
        # card) adds one set of three, taken or not. So every choice among the
        # hand's sets is listed once (sets none of whose cards could run even
        # with one more card are taken whole) with each lane's share, and then
        # a card costs two lookups per choice. A set's fourth card is solved
        # on its own.
        if (hand.bit_count() + 1) % 3 == 0:  # a draw could make a hand all in melds
            found = [best_discard_deadwood(hand | 1 << i) for i in range(64) if draws >> i & 1]
            return sum(found), sum(1 for left in found if left <= limit)
        a = hand & 0x1FFF
        b = hand >> 16 & 0x1FFF
        c = hand >> 32 & 0x1FFF
        d = hand >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        pairs = ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) & ~sets
        total = reach = 0
        fourth = draws & sets * EVERY_SUIT
        draws ^= fourth
        while fourth:
            card = fourth & -fourth
            fourth ^= card
            left = best_discard_deadwood(hand | card)
            total += left
            reach += left <= limit
        choices = [(a, b, c, d)]
        if sets:
            open_ = sets & ((a & near[a]) | (b & near[b]) | (c & near[c]) | (d & near[d]))
            keep = ~(sets ^ open_)
            kept = (a & keep, b & keep, c & keep, d & keep)
            could_run = (near[a], near[b], near[c], near[d])
            choices = [lanes_of(m) for m in every_choice(kept, open_, could_run)]
        shares = []
        for w, x, y, z in choices:
            tw, tx, ty, tz = table[w], table[x], table[y], table[z]
            gw, gx, gy, gz = gain[w], gain[x], gain[y], gain[z]
            whole = tw + tx + ty + tz
            shares.append(
                (
                    (w, x, y, z),
                    (whole - tw, whole - tx, whole - ty, whole - tz),
                    (max(gx, gy, gz), max(gw, gy, gz), max(gw, gx, gz), max(gw, gx, gy)),
                )
            )
        # A pair's third card, its set taken: the same whichever suit it is.
        taken: dict[int, int] = {}
        for bit in cards_of[pairs]:
            if draws & bit * EVERY_SUIT:
                best = 1 << 30
                for w, x, y, z in choices:
                    w, x, y, z = w & ~bit, x & ~bit, y & ~bit, z & ~bit
                    left = table[w] + table[x] + table[y] + table[z]
                    left -= max(gain[w], gain[x], gain[y], gain[z])
                    if left < best:
                        best = left
                taken[bit] = best
        single = shares[0] if len(shares) == 1 else None
        for suit in range(4):
            drawn = draws >> 16 * suit & 0x1FFF
            if not drawn:
                continue
            if single is not None:
                # One choice of sets: two lookups per card.
                lane, rest, top = single[0][suit], single[1][suit], single[2][suit]
                for bit in cards_of[drawn]:
                    grown = lane | bit
                    saving = gain[grown]
                    left = rest + table[grown] - (saving if saving > top else top)
                    if bit & pairs and taken[bit] < left:
                        left = taken[bit]
                    total += left
                    reach += left <= limit
                continue
            for bit in cards_of[drawn]:
                best = 1 << 30
                for lanes, rests, most in shares:
                    grown = lanes[suit] | bit
                    saving = gain[grown]
                    top = most[suit]
                    left = rests[suit] + table[grown] - (saving if saving > top else top)
                    if left < best:
                        best = left
                if bit & pairs and taken[bit] < best:
                    best = taken[bit]
                total += best
                reach += best <= limit
        return total, reach

    def discard_outcomes(hand: int) -> dict[int, int]:
        # Discarding a card of a rank held at most twice leaves the hand's set
        # ranks as they are and changes only its own lane: every choice among
        # the hand's sets is listed once, with each lane's share. Cards of set
        # ranks are solved one by one.
        a = hand & 0x1FFF
        b = hand >> 16 & 0x1FFF
        c = hand >> 32 & 0x1FFF
        d = hand >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        found: dict[int, int] = {}
        choices = [(a, b, c, d)]
        if sets:
            solo = hand & sets * EVERY_SUIT
            while solo:
                card = solo & -solo
                solo ^= card
                found[card] = deadwood(hand ^ card)
            can_run = (runnable[a], runnable[b], runnable[c], runnable[d])
            contested = sets & (can_run[0] | can_run[1] | can_run[2] | can_run[3])
            keep = ~(sets ^ contested)
            kept = (a & keep, b & keep, c & keep, d & keep)
            if contested:
                choices = [lanes_of(m) for m in every_choice(kept, contested, can_run)]
            else:
                choices = [kept]
        for suit, lane in enumerate((a, b, c, d)):
            cards = lane & ~sets
            if not cards:
                continue
            shift = 16 * suit
            if len(choices) == 1:
                lanes = choices[0]
                own = lanes[suit]
                rest = table[lanes[0]] + table[lanes[1]] + table[lanes[2]] + table[lanes[3]]
                rest -= table[own]
                for bit in cards_of[cards]:
                    found[bit << shift] = rest + table[own ^ bit]
                continue
            for bit in cards_of[cards]:
                best = 1 << 30
                for lanes in choices:
                    left = table[lanes[0]] + table[lanes[1]] + table[lanes[2]] + table[lanes[3]]
                    left += table[lanes[suit] ^ bit] - table[lanes[suit]]
                    if left < best:
                        best = left
                found[bit << shift] = best
        return found

    return MeldScorer(rule, deadwood, best_discard_deadwood, draw_outlook, discard_outcomes)


_CLASSIC: Final = scorer(CLASSIC_ACES)


#: ``deadwood_of_mask(mask, rule=None)``: least deadwood of the hand in
#: ``mask``, counting every card; the classic ace rule unless ``rule`` is given.
#: (The classic scorer's own function: no call in between on the hot path.)
deadwood_of_mask: Final = _CLASSIC.deadwood
#: ``best_discard_deadwood_of_mask(mask, rule=None)``: least deadwood left after
#: discarding one card of the hand in ``mask``.
best_discard_deadwood_of_mask: Final = _CLASSIC.best_discard_deadwood

"""Match statistics on W/D/L counts: score, Elo difference with a confidence interval, and the
generalised log-likelihood ratio (GSPRT) that fishtest uses for its SPRT on trinomial (W/D/L)
results.

Everything here works on single game results, not on game pairs (pentanomial): the games of one
opening pair are treated as independent, which slightly overstates the variance when the two
games of a pair are correlated. That is the usual trade-off of the trinomial model, and it keeps
the numbers meaningful for any number of games, including odd ones and interrupted runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

# Two-sided 95% quantile of the standard normal distribution.
Z_95 = 1.959963984540054

# Fishtest's regularisation: an outcome never observed counts as this many games, so that every
# outcome has a non-zero frequency in the likelihood ratio.
EPSILON_GAMES = 1e-3

# The score of a loss, a draw and a win, in the order the SPRT code keeps its counts.
OUTCOME_SCORES = (0.0, 0.5, 1.0)

# How elo_estimate's interval is computed, for the report and the JSON summary.
INTERVAL_METHOD = "95% interval, normal approximation on single game scores (trinomial W/D/L)"

Unit = TypeVar("Unit")


def bootstrap_interval(
    units: Sequence[Unit],
    statistic: Callable[[list[Unit]], float | None],
    resamples: int = 1000,
    seed: int = 1,
) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval of `statistic`: the units (games, openings: whatever is
    independent) drawn again with replacement `resamples` times, seeded so that a run repeats; a
    draw whose statistic is None (not defined on it) is left out."""
    rng = random.Random(seed)
    draws = sorted(
        v for v in (statistic(rng.choices(units, k=len(units))) for _ in range(resamples)) if v is not None
    )
    last = len(draws) - 1
    return draws[round(0.025 * last)], draws[round(0.975 * last)]


def score_to_elo(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1] (+-inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of a player who is `elo` logistic Elo stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mean_and_variance(wins: float, draws: float, losses: float) -> tuple[float, float]:
    """Mean and per-game variance of the game score (1, 1/2, 0) of an observed sample."""
    games = wins + draws + losses
    mean = (wins + 0.5 * draws) / games
    variance = (
        wins * (1.0 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * (0.0 - mean) ** 2
    ) / games
    return mean, variance


@dataclass(frozen=True)
class EloEstimate:
    """Score and Elo difference of engine1 over engine2, with a 95% confidence interval."""

    score: float
    elo: float
    elo_low: float
    elo_high: float


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo difference from W/D/L: the mean game score is taken as normally distributed with the
    sample's own variance, and the interval on the score is mapped through the logistic curve
    (so the Elo interval is asymmetric). No games gives a score of 50% and an infinite interval."""
    games = wins + draws + losses
    if games == 0:
        return EloEstimate(0.5, 0.0, -math.inf, math.inf)
    score, variance = _mean_and_variance(wins, draws, losses)
    half_width = Z_95 * math.sqrt(variance / games)
    return EloEstimate(
        score=score,
        elo=score_to_elo(score),
        elo_low=score_to_elo(score - half_width),
        elo_high=score_to_elo(score + half_width),
    )


def _multiplier(observed: list[float], score: float) -> float:
    """The Lagrange multiplier x of the most likely distribution with expected score `score`
    given the observed frequencies p_i of OUTCOME_SCORES a_i: that distribution is
    p_i / (1 + x (a_i - score)), where x solves sum p_i (a_i - score) / (1 + x (a_i - score)) = 0.
    The left side falls strictly with x between the poles at -1 / (1 - score) and -1 / -score,
    so bisection finds the root (every p_i > 0 after regularisation)."""
    deviations = [value - score for value in OUTCOME_SCORES]
    low = -1.0 / max(deviations)
    high = -1.0 / min(deviations)
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        slope = sum(p * d / (1.0 + middle * d) for p, d in zip(observed, deviations))
        if slope > 0.0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1 (logistic
    Elo), with false positive rate alpha and false negative rate beta."""

    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def lower_bound(self) -> float:
        """Accept H0 when the LLR falls to this (Wald's bound)."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """Accept H1 when the LLR rises to this (Wald's bound)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """Generalised log-likelihood ratio of H1 over H0 on W/D/L, as fishtest computes it for
        logistic Elo (no BayesElo draw model): the log of the likelihood of the games under the
        most likely W/D/L distribution with the score expected under H1, minus the same under
        H0. Outcomes never observed count as EPSILON_GAMES games, as in fishtest.

        Why not the shortcut N (s1 - s0) (2 s - s0 - s1) / (2 var): it divides by the sample
        variance, which is (almost) zero while every game has had the same result, so it either
        accepts H1 after a single win or never decides on 40 wins out of 40. The exact ratio
        needs no variance: N straight wins give about N log(s1 / s0)."""
        if wins + draws + losses == 0:
            return 0.0
        counts = [count if count > 0 else EPSILON_GAMES for count in (losses, draws, wins)]
        games = sum(counts)
        observed = [count / games for count in counts]
        s0 = elo_to_score(self.elo0)
        s1 = elo_to_score(self.elo1)
        x0 = _multiplier(observed, s0)
        x1 = _multiplier(observed, s1)
        # log(p1_i / p0_i) for the two most likely distributions p_k_i = p_i / (1 + x_k d_k_i)
        log_ratio = [
            math.log(1.0 + x0 * (value - s0)) - math.log(1.0 + x1 * (value - s1))
            for value in OUTCOME_SCORES
        ]
        return games * sum(p * r for p, r in zip(observed, log_ratio))

    def decision(self, llr: float) -> str | None:
        """'H1' or 'H0' once a bound is crossed, None while the test goes on."""
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None


def format_elo(elo: float) -> str:
    """Elo with its sign, or +-inf."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo, 1) + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0


def format_result(wins: int, draws: int, losses: int) -> str:
    """The harness's result line: W/D/L from engine1's side, score, Elo with its interval."""
    estimate = elo_estimate(wins, draws, losses)
    return (
        f"W/D/L {wins}/{draws}/{losses} (engine1's view), score"
        f" {100 * estimate.score:.1f}%, Elo {format_elo(estimate.elo)}"
        f" [{format_elo(estimate.elo_low)}, {format_elo(estimate.elo_high)}]"
        f" ({INTERVAL_METHOD})"
    )


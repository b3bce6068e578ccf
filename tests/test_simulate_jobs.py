"""``ginrules simulate --jobs N``: the same results for any N, progress across workers,
and Ctrl-C that stops cleanly with the partial result (issue 15)."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from ginrules.cli import games, main
from ginrules.engine import parallel
from ginrules.engine import simulate as simulate_module
from ginrules.engine.match import MAX_HANDS, MatchError, MatchProblem
from ginrules.engine.simulate import (
    Simulation,
    SimulationInterrupted,
    _Prefix,
    simulate,
    simulate_each,
)
from ginrules.rules.compile import EngineConfig
from tests.engine_helpers import config

ROOT: Final = Path(__file__).resolve().parent.parent
INTERRUPTED: Final = re.compile(r"interrupted after (\d+) of (\d+) games")


def _children() -> set[int]:
    """The process ids of this process's living children (reaping those that ended)."""
    return {child.pid for child in multiprocessing.active_children() if child.pid is not None}


@pytest.fixture
def children_before() -> set[int]:
    """Children already running before the test (other suites' pools): not ours to count."""
    return _children()


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


# -- the same results for any number of jobs ---------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("classic", "--games", "40", "--seed", "3", "--compare", "oklahoma"),
        ("hollywood", "--games", "40", "--seed", "8"),
    ],
    ids=["classic-compare-oklahoma", "hollywood"],
)
def test_one_and_two_jobs_print_the_same_json(argv: tuple[str, ...]) -> None:
    code, one, err = run("simulate", *argv, "--json", "--jobs", "1")
    assert code == 0, err
    code, two, err = run("simulate", *argv, "--json", "--jobs", "2")
    assert code == 0, err
    assert one == two
    data = json.loads(one)
    assert data["matches"] == 40
    if data["ruleset"] == "hollywood":
        assert data["games"] == 3 * 40  # three games a Hollywood match
    else:
        assert data["compare"]["matches"] == 40 and data["compare"]["summary"]


def test_the_text_report_and_its_progress_bar_are_the_same_with_two_jobs() -> None:
    code, one, err_one = run("simulate", "classic", "--games", "12", "--jobs", "1")
    assert code == 0, err_one
    code, two, err_two = run("simulate", "classic", "--games", "12", "--jobs", "2")
    assert code == 0, err_two
    assert one == two and "12 matches" in one and "seeds 0..11" in one
    assert "12/12 games" in err_one and "12/12 games" in err_two


def test_the_api_gives_equal_simulations_for_any_jobs() -> None:
    classic, hollywood = config("classic"), config("hollywood")
    runs = [simulate(classic, 24, 11, ("greedy", "strong"), jobs=jobs) for jobs in (1, 2, 3)]
    assert runs[0].matches == 24 and runs[0].hands > 24
    assert runs[0] == runs[1] == runs[2]
    assert runs[0].to_json() == runs[2].to_json()
    both = simulate_each([classic, hollywood], 10, 5, ("strong", "random"), jobs=2)
    assert both == [
        simulate(classic, 10, 5, ("strong", "random")),
        simulate(hollywood, 10, 5, ("strong", "random")),
    ]


def test_adding_simulations_is_order_independent() -> None:
    classic = config("classic")
    # Runs of an even length from an even seed seat the bots as the whole run does.
    parts = [simulate(classic, 2, seed, ("greedy", "strong")) for seed in (0, 2, 4)]
    whole = simulate(classic, 6, 0, ("greedy", "strong"))
    forwards = parts[0] + parts[1] + parts[2]
    backwards = parts[2] + parts[1] + parts[0]
    for merged in (forwards, backwards):
        assert (merged.matches, merged.hands, merged.wins) == (6, whole.hands, whole.wins)
        assert merged.endings == whole.endings and merged.turns == whole.turns
        assert merged.game_margins == whole.game_margins
    assert parts[0].matches == 2  # adding made a new Simulation; the parts are untouched


def test_the_prefix_waits_for_a_gap_to_fill() -> None:
    empty = Simulation("f", ("a", "b"), 0)
    one = Simulation("f", ("a", "b"), 0, matches=1, hands=2)
    prefix = _Prefix([empty])
    prefix.add(1, (one,))
    prefix.add(2, (one,))
    assert prefix.state[0] == 0  # match 0 is missing: nothing counts yet
    prefix.add(0, (one,))
    assert prefix.state[0] == 3 and prefix.state[1][0].matches == 3
    prefix.add(4, (one,))
    assert prefix.state[0] == 3 and prefix.state[1][0].hands == 6


# -- progress ---------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_game_in_order(jobs: int) -> None:
    seen: list[int] = []
    simulate(config("classic"), 15, 2, ("greedy", "random"), progress=seen.append, jobs=jobs)
    assert seen == list(range(1, 16))


def test_a_progress_callback_that_raises_keyboardinterrupt_stops_with_the_prefix(
    children_before: set[int],
) -> None:
    classic = config("classic")

    def stop_at_six(done: int) -> None:
        if done == 6:
            raise KeyboardInterrupt

    with pytest.raises(SimulationInterrupted) as caught:
        simulate(classic, 40, 1, ("greedy", "strong"), progress=stop_at_six, jobs=2)
    stop = caught.value
    assert stop.requested == 40 and 0 <= stop.done <= 6
    assert stop.results[0].matches == stop.done
    if stop.done:
        assert stop.results[0] == simulate(classic, stop.done, 1, ("greedy", "strong"))
    assert _children() <= children_before


def test_bad_jobs_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("0", "-2", str(parallel.MAX_JOBS + 1)):
        code, out, err = run("simulate", "classic", "--games", "2", "--jobs", value)
        assert code == 2 and out == ""
        assert "--jobs must be between 1 and 64" in err
    with pytest.raises(SystemExit) as caught:
        main(["simulate", "classic", "--jobs", "two"])
    assert caught.value.code == 2 and "--jobs" in capsys.readouterr().err
    with pytest.raises(ValueError, match="jobs=0"):
        simulate(config("classic"), 2, 0, jobs=0)


#: Oklahoma matches that never end: run in a fresh interpreter, which has no other
#: threads, so its workers are forked and inherit the change (a test process that
#: has started servers and pools would spawn them, and they would import afresh).
RUNAWAY: Final = """
import sys
from ginrules.cli import main
from ginrules.engine import simulate as simulate_module
from ginrules.engine.match import MAX_HANDS, MatchError, MatchProblem
from tests.engine_helpers import config

oklahoma = config("oklahoma").fingerprint
play_match = simulate_module._play_match


def runaway(result, cfg, *rest):
    if cfg.fingerprint == oklahoma:
        raise MatchError(MatchProblem.RUNAWAY, hands=MAX_HANDS)
    play_match(result, cfg, *rest)


simulate_module._play_match = runaway
sys.exit(main(sys.argv[1:]))
"""


def test_a_match_that_cannot_be_played_names_its_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    oklahoma = config("oklahoma").fingerprint
    play_match = simulate_module._play_match

    def runaway(result: Simulation, cfg: EngineConfig, *rest: Any) -> None:
        if cfg.fingerprint == oklahoma:
            raise MatchError(MatchProblem.RUNAWAY, hands=MAX_HANDS)
        play_match(result, cfg, *rest)

    monkeypatch.setattr(simulate_module, "_play_match", runaway)
    argv = ("classic", "--compare", "oklahoma", "--games", "3")
    code, out, err = run("simulate", *argv, "--jobs", "1")
    assert code == 1 and out == ""
    assert f"oklahoma: error: no winner after {MAX_HANDS} hands" in err
    # The same from worker processes.
    done = subprocess.run(
        [sys.executable, "-c", RUNAWAY, "simulate", *argv, "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == "", done.stderr
    assert f"oklahoma: error: no winner after {MAX_HANDS} hands" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_before_the_games_begin_is_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(name: str, output: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(games, "config_or_report", interrupted)
    code, out, err = run("simulate", "classic", "--games", "5")
    assert code == 130 and out == ""
    assert err.strip() == "interrupted before the first of 5 games finished"


# -- the worker pool on its own ---------------------------------------------------------


def _square_unless_five(kind: str) -> Callable[[int], int]:
    def work(number: int) -> int:
        if number == 5 and kind == "raise":
            raise ArithmeticError(f"no {number}")
        if number == 5 and kind == "die":
            os._exit(3)
        return number * number

    return work


def test_the_pool_hands_every_number_out_once(children_before: set[int]) -> None:
    got: dict[int, int] = {}
    parallel.run_numbered(_square_unless_five, "fine", 50, 3, got.__setitem__)
    assert got == {number: number * number for number in range(50)}
    assert _children() <= children_before


def test_a_worker_error_is_raised_here_and_a_dead_worker_is_reported(
    children_before: set[int],
) -> None:
    with pytest.raises(ArithmeticError, match="no 5"):
        parallel.run_numbered(_square_unless_five, "raise", 30, 2, lambda n, r: None)
    with pytest.raises(parallel.WorkerLost) as lost:
        parallel.run_numbered(_square_unless_five, "die", 30, 2, lambda n, r: None)
    assert lost.value.exitcode == 3
    assert _children() <= children_before


def test_spawned_workers_give_the_same_result(
    monkeypatch: pytest.MonkeyPatch, children_before: set[int]
) -> None:
    # What a program running threads gets: workers that import afresh, the setup pickled.
    monkeypatch.setattr(parallel, "start_method", lambda: "spawn")
    classic = config("classic")
    spawned = simulate(classic, 8, 4, ("greedy", "strong"), jobs=2)
    assert spawned == simulate(classic, 8, 4, ("greedy", "strong"))
    assert _children() <= children_before


def test_the_cores_and_the_start_method() -> None:
    assert 1 <= parallel.usable_cores() <= (os.cpu_count() or 1)
    assert parallel.start_method() in ("fork", "spawn")


# -- Ctrl-C on the real command ---------------------------------------------------------


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


#: ``python -m ginrules`` with Ctrl-C handled as in a terminal, even when this test runs
#: where SIGINT is ignored (a shell's background job), which the command would inherit.
BOOT: Final = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
    " runpy.run_module('ginrules', run_name='__main__')"
)


Start = Callable[..., "subprocess.Popen[str]"]


@pytest.fixture
def start() -> Iterator[Start]:
    """Starts ``ginrules simulate classic --games 100000 ARGS...``; at the end of the test
    any still running is stopped (Ctrl-C, which stops its workers; killed if need be)."""
    started: list[subprocess.Popen[str]] = []

    def launch(*argv: str) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", BOOT, "simulate", "classic", "--games", "100000", *argv],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        return process

    yield launch
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


def wait_for(check: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the simulation did not get going"
        time.sleep(0.02)


def interrupt(process: subprocess.Popen[str], workers: set[int]) -> tuple[str, int]:
    """Ctrl-C the command; its standard output, and the games it says it finished."""
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    found = INTERRUPTED.search(err)
    assert found is not None, err
    assert found[2] == "100000"
    for pid in workers:  # every worker ended and was reaped
        assert not Path(f"/proc/{pid}").exists()
    return out, int(found[1])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_between_games_prints_the_report_of_the_games_finished(start: Start) -> None:
    process = start("--jobs", "1")
    assert process.stderr is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    first = ""
    deadline = time.monotonic() + 20
    while "games" not in first:  # the bar's first line: game 1 has finished
        assert time.monotonic() < deadline and process.poll() is None
        if selector.select(timeout=0.1):
            first += process.stderr.readline()
    selector.close()
    time.sleep(0.3)
    out, done = interrupt(process, set())
    assert done >= 1
    assert f"classic ({config('classic').fingerprint}): {done} matches," in out
    assert f"seeds 0..{done - 1}" in out
    code, same, _ = run("simulate", "classic", "--games", str(done), "--jobs", "1")
    assert code == 0 and same == out  # exactly the report of --games k


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_stops_two_workers_and_prints_the_partial_json(start: Start) -> None:
    process = start("--jobs", "2", "--json", "--bots", "greedy,greedy")
    workers: set[int] = set()

    def playing() -> bool:  # no bar with --json off a terminal: wait for the workers
        assert process.poll() is None
        workers.update(children_of(process.pid))
        return len(workers) == 2

    wait_for(playing)
    time.sleep(0.3)
    out, done = interrupt(process, workers)
    if done == 0:  # nothing finished from the first game on: no report
        assert out == ""
        return
    data = json.loads(out)
    assert data["matches"] == done and data["seed"] == 0
    argv = ("classic", "--games", str(done), "--jobs", "1", "--json", "--bots", "greedy,greedy")
    code, same, _ = run("simulate", *argv)
    assert code == 0 and same == out

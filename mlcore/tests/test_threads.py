"""map_in_threads keeps the order of its results and raises what a thread raised."""
import threading

import pytest

from mlcore import threads
from mlcore.threads import map_in_threads, split_points


def test_results_come_back_in_argument_order_from_several_threads():
    seen = set()

    def record(x, y):
        seen.add(threading.get_ident())
        return x * y

    assert map_in_threads(record, [(1, 2), (3, 4), (5, 6)]) == [2, 12, 30]
    assert map_in_threads(record, [(7, 1)]) == [7] and map_in_threads(record, []) == []


def test_an_exception_in_a_thread_reaches_the_caller():
    def fail(x):
        raise ValueError(f"bad {x}")

    with pytest.raises(ValueError, match="bad 2"):
        map_in_threads(fail, [(2,), (3,)])


def test_split_points_cover_everything_in_at_most_max_threads_parts(monkeypatch):
    monkeypatch.setattr(threads, "MAX_THREADS", 3)
    assert split_points(1000, min_part=100).tolist() == [0, 333, 667, 1000]
    assert split_points(250, min_part=100).tolist() == [0, 125, 250]
    assert split_points(0, min_part=100).tolist() == [0, 0]


def test_one_thread_by_default_and_set_max_threads_validates(monkeypatch):
    assert threads.MAX_THREADS == 1 and threads.available_cpus() >= 1
    monkeypatch.setattr(threads, "MAX_THREADS", 1)
    threads.set_max_threads(2)
    assert split_points(200, min_part=100).tolist() == [0, 100, 200]
    with pytest.raises(ValueError, match="at least one thread"):
        threads.set_max_threads(0)

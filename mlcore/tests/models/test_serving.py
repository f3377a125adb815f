"""Tests for mlcore.models.serving.DraftBatcher (plain asyncio.run, no plugin needed)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from mlcore.configs import MCExample, MCPrediction
from mlcore.models.serving import (
    BatcherClosed,
    BatcherOverloaded,
    DraftBatcher,
    InferenceFailed,
)


def draft(text: str) -> MCExample:
    return MCExample(text, ("a", "b", "c", "d"))


class RecordingPredictor:
    """Fake ``predict_fn`` that records its batches and can be held at a gate."""

    def __init__(self, delay: float = 0.0, gate: threading.Event | None = None) -> None:
        self.batches: list[list[str]] = []
        self.delay = delay
        self.gate = gate
        self.started = threading.Event()

    def __call__(self, examples: list[MCExample]) -> list[MCPrediction]:
        self.started.set()
        if self.gate is not None:
            self.gate.wait(timeout=5)
        time.sleep(self.delay)
        self.batches.append([ex.prompt for ex in examples])
        return [MCPrediction((0.7, 0.1, 0.1, 0.1), 0, ex.prompt, "rev") for ex in examples]


async def _wait_started(predictor: RecordingPredictor) -> None:
    while not predictor.started.is_set():
        await asyncio.sleep(0.005)


def test_single_draft_runs_immediately() -> None:
    async def main() -> None:
        predictor = RecordingPredictor()
        batcher = DraftBatcher(predictor)
        prediction = await asyncio.wait_for(batcher.submit("conn", draft("hello")), 2)
        assert prediction is not None and prediction.model_name == "hello"
        assert predictor.batches == [["hello"]]
        await batcher.close()

    asyncio.run(main())


def test_latest_draft_wins() -> None:
    async def main() -> None:
        gate = threading.Event()
        predictor = RecordingPredictor(gate=gate)
        batcher = DraftBatcher(predictor)
        running = asyncio.create_task(batcher.submit("conn", draft("v1")))
        await _wait_started(predictor)  # v1 is now in the running batch
        v2 = asyncio.create_task(batcher.submit("conn", draft("v2")))
        v3 = asyncio.create_task(batcher.submit("conn", draft("v3")))
        await asyncio.sleep(0.01)
        gate.set()
        results = await asyncio.gather(running, v2, v3)
        assert results[0] is not None and results[0].model_name == "v1"  # already running: finishes
        assert results[1] is None  # replaced while waiting: stale
        assert results[2] is not None and results[2].model_name == "v3"
        assert predictor.batches == [["v1"], ["v3"]]  # v2 never reached predict_fn
        assert batcher.stats.dropped == 1
        await batcher.close()

    asyncio.run(main())


def test_many_keys_are_batched() -> None:
    async def main() -> None:
        gate = threading.Event()
        predictor = RecordingPredictor(gate=gate)
        batcher = DraftBatcher(predictor, max_batch=4)
        first = asyncio.create_task(batcher.submit("k0", draft("d0")))
        await _wait_started(predictor)
        rest = [asyncio.create_task(batcher.submit(f"k{i}", draft(f"d{i}"))) for i in range(1, 11)]
        await asyncio.sleep(0.01)
        gate.set()
        results = await asyncio.gather(first, *rest)
        assert [r.model_name for r in results] == [f"d{i}" for i in range(11)]
        assert [len(b) for b in predictor.batches] == [1, 4, 4, 2]
        stats = batcher.stats
        assert (stats.batches_run, stats.completed, stats.largest_batch) == (4, 11, 4)
        assert stats.mean_batch_size == pytest.approx(11 / 4)
        await batcher.close()

    asyncio.run(main())


def test_overload_raises_but_replacing_is_allowed() -> None:
    async def main() -> None:
        gate = threading.Event()
        predictor = RecordingPredictor(gate=gate)
        batcher = DraftBatcher(predictor, max_pending=2)
        busy = asyncio.create_task(batcher.submit("busy", draft("x")))
        await _wait_started(predictor)
        waiting = [asyncio.create_task(batcher.submit(k, draft(k))) for k in ("a", "b")]
        await asyncio.sleep(0.01)
        with pytest.raises(BatcherOverloaded):
            await batcher.submit("c", draft("c"))
        replacement = asyncio.create_task(batcher.submit("a", draft("a2")))
        await asyncio.sleep(0.01)
        gate.set()
        results = await asyncio.gather(busy, *waiting, replacement)
        assert results[1] is None and results[3].model_name == "a2"
        await batcher.close()

    asyncio.run(main())


def test_exception_reaches_every_draft_of_the_batch() -> None:
    async def main() -> None:
        gate = threading.Event()
        calls = []

        def failing(examples: list[MCExample]) -> list[MCPrediction]:
            calls.append(len(examples))
            gate.wait(timeout=5)
            raise RuntimeError("CUDA out of memory")

        batcher = DraftBatcher(failing)
        tasks = [asyncio.create_task(batcher.submit(k, draft(k))) for k in ("a", "b", "c")]
        await asyncio.sleep(0.05)
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, InferenceFailed) for r in results)
        assert "CUDA out of memory" in str(results[0])
        assert isinstance(results[0].__cause__, RuntimeError)
        assert batcher.stats.failed == 3
        # The worker survives a failing batch.
        with pytest.raises(InferenceFailed):
            await asyncio.wait_for(batcher.submit("d", draft("d")), 2)
        await batcher.close()

    asyncio.run(main())


def test_loop_is_not_blocked_during_inference() -> None:
    async def main() -> None:
        batcher = DraftBatcher(RecordingPredictor(delay=0.3))
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        tick_task = asyncio.create_task(ticker())
        await batcher.submit("conn", draft("slow"))
        tick_task.cancel()
        assert ticks >= 10  # ~30 possible in 0.3 s; a blocked loop would give 0
        await batcher.close()

    asyncio.run(main())


def test_cancelled_submit_is_not_computed() -> None:
    async def main() -> None:
        gate = threading.Event()
        predictor = RecordingPredictor(gate=gate)
        batcher = DraftBatcher(predictor)
        busy = asyncio.create_task(batcher.submit("busy", draft("x")))
        await _wait_started(predictor)
        gone = asyncio.create_task(batcher.submit("gone", draft("gone")))
        await asyncio.sleep(0.01)
        gone.cancel()
        await asyncio.sleep(0.01)
        gate.set()
        await busy
        assert batcher.pending_count == 0 and predictor.batches == [["x"]]
        await batcher.close()

    asyncio.run(main())


def test_close_resolves_waiting_and_rejects_new() -> None:
    async def main() -> None:
        gate = threading.Event()
        predictor = RecordingPredictor(gate=gate)
        batcher = DraftBatcher(predictor)
        running = asyncio.create_task(batcher.submit("a", draft("a")))
        await _wait_started(predictor)
        waiting = asyncio.create_task(batcher.submit("b", draft("b")))
        await asyncio.sleep(0.01)
        closing = asyncio.create_task(batcher.close())
        await asyncio.sleep(0.01)
        gate.set()
        await closing
        assert (await running) is not None and (await waiting) is None
        with pytest.raises(BatcherClosed):
            await batcher.submit("c", draft("c"))

    asyncio.run(main())


def test_works_across_event_loops() -> None:
    predictor = RecordingPredictor()
    batcher = DraftBatcher(predictor)
    for text in ("loop1", "loop2"):  # asyncio.run makes a fresh loop each time
        result = asyncio.run(batcher.submit("k", draft(text)))
        assert result is not None and result.model_name == text
    assert predictor.batches == [["loop1"], ["loop2"]]

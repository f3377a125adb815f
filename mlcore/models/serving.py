"""Asyncio micro-batcher for live draft scoring (used by the websocket consumer).

Students type; every keystroke pause sends a draft. Only the newest draft of
a connection matters, so :class:`DraftBatcher` keeps at most one waiting
draft per key and replaces it in place when a newer one arrives (the old
``submit`` returns ``None``). A single worker coroutine per event loop takes
up to ``max_batch`` waiting drafts, runs ``predict_fn`` on them in a thread
executor so the loop keeps serving sockets, and resolves their futures.
There is no artificial waiting window: an idle worker starts at once, and
whatever arrives during a batch forms the next one, so batches grow with load.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from dataclasses import dataclass

from mlcore.configs import MCExample, MCPrediction

__all__ = ["BatcherClosed", "BatcherOverloaded", "BatcherStats", "DraftBatcher", "InferenceFailed"]

PredictFn = Callable[[list[MCExample]], list[MCPrediction]]


class BatcherOverloaded(Exception):
    """Too many connections are waiting for a prediction; try again later."""


class InferenceFailed(Exception):
    """``predict_fn`` raised (or misbehaved) for the batch this draft was in."""


class BatcherClosed(Exception):
    """``submit`` was called after :meth:`DraftBatcher.close`."""


@dataclass(frozen=True)
class BatcherStats:
    """Counters since creation, for benchmarks and monitoring."""

    submitted: int
    dropped: int
    completed: int
    failed: int
    batches_run: int
    largest_batch: int

    @property
    def mean_batch_size(self) -> float:
        """Drafts computed per ``predict_fn`` call (completed and failed)."""
        return (self.completed + self.failed) / self.batches_run if self.batches_run else 0.0


@dataclass
class _Draft:
    example: MCExample
    future: asyncio.Future[MCPrediction | None]


class DraftBatcher:
    """Latest-draft-wins, bounded, batching front of a blocking ``predict_fn``.

    Parameters
    ----------
    predict_fn : callable
        ``list[MCExample] -> list[MCPrediction]`` (same length, same order),
        e.g. ``scorer.predict``. Runs in ``executor``, one batch at a time.
    max_pending : int
        Most distinct keys that may wait at once; beyond it ``submit`` raises
        :class:`BatcherOverloaded` (a newer draft for a waiting key is always
        accepted since it replaces one).
    max_batch : int
        Most drafts per ``predict_fn`` call.
    executor : concurrent.futures.Executor or None
        Where ``predict_fn`` runs; ``None`` means the loop's default executor.
    """

    def __init__(self, predict_fn: PredictFn, *, max_pending: int = 64, max_batch: int = 16,
                 executor: Executor | None = None) -> None:
        if max_pending < 1 or max_batch < 1:
            raise ValueError("max_pending and max_batch must be >= 1")
        self.predict_fn = predict_fn
        self.max_pending = max_pending
        self.max_batch = max_batch
        self.executor = executor
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: OrderedDict[Hashable, _Draft] = OrderedDict()
        self._wakeup: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None
        self._closed = False
        self._counts = {"submitted": 0, "dropped": 0, "completed": 0, "failed": 0, "batches_run": 0, "largest_batch": 0}

    @property
    def stats(self) -> BatcherStats:
        """Snapshot of the counters."""
        return BatcherStats(**self._counts)

    @property
    def pending_count(self) -> int:
        """Drafts waiting for the next batch."""
        return len(self._pending)

    def _bind_to_running_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._worker is not None and not self._worker.done():
            return
        if self._loop is not loop:
            # A new loop (e.g. one per test, or a restarted server thread):
            # futures of the old loop can never be awaited here, so start fresh.
            self._pending = OrderedDict()
            self._wakeup = asyncio.Event()
            self._loop = loop
        self._worker = loop.create_task(self._run(), name="DraftBatcher worker")

    async def submit(self, key: Hashable, example: MCExample) -> MCPrediction | None:
        """Score ``example`` as the newest draft of ``key``.

        Returns
        -------
        MCPrediction or None
            The prediction, or ``None`` if a newer draft for the same key
            replaced this one before its batch started.

        Raises
        ------
        BatcherOverloaded
            If ``max_pending`` other keys are already waiting.
        InferenceFailed
            If ``predict_fn`` failed for this draft's batch.
        BatcherClosed
            If the batcher was closed.
        """
        if self._closed:
            raise BatcherClosed("the draft batcher is closed")
        self._bind_to_running_loop()
        assert self._loop is not None and self._wakeup is not None
        draft = _Draft(example, self._loop.create_future())
        previous = self._pending.get(key)
        if previous is None and len(self._pending) >= self.max_pending:
            raise BatcherOverloaded(f"{len(self._pending)} drafts are already waiting (limit {self.max_pending})")
        if previous is not None:
            # Assigning to an existing key keeps its place in the queue, so a
            # fast typist is not pushed to the back on every keystroke.
            previous.future.set_result(None)
            self._counts["dropped"] += 1
        self._pending[key] = draft
        self._counts["submitted"] += 1
        self._wakeup.set()
        try:
            return await draft.future
        except asyncio.CancelledError:
            # The caller went away (socket closed): do not compute for nobody.
            if self._pending.get(key) is draft:
                del self._pending[key]
            raise

    def _take_batch(self) -> list[_Draft]:
        batch: list[_Draft] = []
        while self._pending and len(batch) < self.max_batch:
            _, draft = self._pending.popitem(last=False)
            if not draft.future.done():
                batch.append(draft)
        return batch

    async def _run(self) -> None:
        assert self._loop is not None and self._wakeup is not None
        loop, wakeup = self._loop, self._wakeup
        while True:
            await wakeup.wait()
            wakeup.clear()
            while batch := self._take_batch():
                await self._run_batch(loop, batch)
            if self._closed:
                return

    async def _run_batch(self, loop: asyncio.AbstractEventLoop, batch: list[_Draft]) -> None:
        examples = [draft.example for draft in batch]
        self._counts["batches_run"] += 1
        self._counts["largest_batch"] = max(self._counts["largest_batch"], len(batch))
        try:
            predictions = await loop.run_in_executor(self.executor, self.predict_fn, examples)
            if len(predictions) != len(batch):
                raise ValueError(f"predict_fn returned {len(predictions)} predictions for {len(batch)} drafts")
        except Exception as exc:
            self._counts["failed"] += len(batch)
            for draft in batch:
                if not draft.future.done():
                    failure = InferenceFailed(f"inference failed: {type(exc).__name__}: {exc}")
                    failure.__cause__ = exc
                    draft.future.set_exception(failure)
            return
        self._counts["completed"] += len(batch)
        for draft, prediction in zip(batch, predictions):
            if not draft.future.done():
                draft.future.set_result(prediction)

    async def close(self) -> None:
        """Stop accepting drafts, let the running batch finish, resolve waiting drafts with ``None``."""
        self._closed = True
        for draft in self._pending.values():
            if not draft.future.done():
                draft.future.set_result(None)
                self._counts["dropped"] += 1
        self._pending.clear()
        worker = self._worker
        if worker is None or worker.done():
            return
        if self._loop is not asyncio.get_running_loop():
            worker.cancel()  # belongs to a dead loop; nothing to wait for
            return
        assert self._wakeup is not None
        self._wakeup.set()
        await worker

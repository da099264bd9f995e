"""The one batch runner (paralign.workers): order, per-chunk failures, progress, streaming, in
this process and on a Dask cluster (the session's shared local one, `dask_cluster`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from paralign.errors import ConfigurationError
from paralign.workers import describe_error, iter_chunk_results, parallel, run_chunks


def _square_unless_negative(chunk: list[int]) -> list[int]:
    if any(x < 0 for x in chunk):
        raise ValueError(f"negative item in {chunk}")
    return [x * x for x in chunk]


def _failed(chunk: list[int], why: str) -> list[str]:
    return [why] * len(chunk)


def test_results_in_input_order_with_progress() -> None:
    seen: list[int] = []
    out = run_chunks(_square_unless_negative, list(range(23)), _failed, workers=1, chunk_size=4,
                     progress=seen.append)
    assert out == [x * x for x in range(23)]
    assert seen == [4, 4, 4, 4, 4, 3]


def test_on_a_cluster_results_in_input_order_with_progress(batch_on_dask) -> None:
    seen: list[int] = []
    out = run_chunks(_square_unless_negative, range(23), _failed, workers=1, chunk_size=4,
                     progress=seen.append)
    assert out == [x * x for x in range(23)]
    assert seen == [4, 4, 4, 4, 4, 3]


class _Counted:
    """An input that counts how many items were read."""

    def __init__(self, n: int) -> None:
        self.n, self.read = n, 0

    def __iter__(self) -> Iterator[int]:
        for x in range(self.n):
            self.read += 1
            yield x


@pytest.mark.parametrize("cluster", [False, True])
def test_streaming_first_results_before_the_input_is_read(cluster: bool, request) -> None:
    if cluster:
        request.getfixturevalue("batch_on_dask")
    items = _Counted(200)
    chunks = iter_chunk_results(_square_unless_negative, items, _failed, workers=1, chunk_size=5)
    assert next(chunks) == [0, 1, 4, 9, 16]
    # here: the first chunk only; on two workers: at most 2 chunks in flight per worker (+ 1 read ahead)
    assert items.read <= (5 * 6 if cluster else 5)
    rest = [x for chunk in chunks for x in chunk]
    assert rest == [x * x for x in range(5, 200)] and items.read == 200


def test_a_failing_chunk_on_a_worker_is_reported_in_its_place(batch_on_dask) -> None:
    items = [1, 2, -3, 4, 5, 6]
    out = run_chunks(_square_unless_negative, items, _failed, workers=1, chunk_size=2, progress=None)
    assert out[:2] == [1, 4] and out[4:] == [25, 36]
    assert out[2] == out[3] and str(out[2]).startswith("worker failed: ValueError: negative item")


def test_serial_failure_propagates_and_bad_worker_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        run_chunks(_square_unless_negative, [-1], _failed, workers=1, chunk_size=1, progress=None)
    with pytest.raises(ConfigurationError):
        list(iter_chunk_results(_square_unless_negative, [1], _failed, workers=0, chunk_size=1))


def test_describe_error() -> None:
    assert describe_error(KeyError("x")) == "KeyError: 'x'"


class _Loader:
    """A task with heavy state loaded on first use and not pickled (as the aligner's PPDB)."""

    def __init__(self) -> None:
        self.model: object | None = None
        self.loads = 0

    def __getstate__(self) -> dict:
        return {"model": None, "loads": 0}

    def __call__(self, chunk: list[int]) -> list[tuple[int, int, int]]:
        if self.model is None:
            self.model, self.loads = object(), self.loads + 1
        return [(os.getpid(), id(self), self.loads) for _ in chunk]


@pytest.mark.usefixtures("batch_on_dask")
def test_a_task_loads_its_state_once_per_worker_not_per_chunk() -> None:
    out = run_chunks(_Loader(), range(40), _failed, workers=2, chunk_size=2)
    copies = {(pid, ident) for pid, ident, _ in out}
    assert len(out) == 40 and len(copies) == len({pid for pid, _ in copies}) <= 2
    assert {loads for *_, loads in out} == {1} and os.getpid() not in {pid for pid, _ in copies}


def _square_or_die(chunk: list[int]) -> list[int]:
    """Kills the worker process that runs a chunk holding 13 (as the kernel's OOM killer would)."""
    if 13 in chunk:
        os._exit(1)
    return [x * x for x in chunk]


def test_a_killed_worker_loses_only_its_chunk(request) -> None:
    """A chunk whose worker dies (each time Dask retries it) is reported item by item as failed;
    every other chunk's results are there, in order.  Its own local cluster of two workers
    (127.0.0.1): the shared one is not to be killed."""
    import cloudpickle
    import dask

    from paralign.cluster import ClusterOptions, connect
    from paralign.workers import on_client

    options = ClusterOptions(workers=2)
    cloudpickle.register_pickle_by_value(request.module)
    try:
        # One retry, not Dask's three: each death waits for a nanny to start a new worker, and
        # four of them in a row outlasted the stall limit on a loaded machine (load 5-8).
        with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
                connect(options) as client, on_client(client, options):
            out = run_chunks(_square_or_die, range(20), _failed, workers=2, chunk_size=4)
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)
    assert out[:12] == [x * x for x in range(12)] and out[16:] == [x * x for x in range(16, 20)]
    assert all(isinstance(why, str) and why.startswith("worker failed: KilledWorker") for why in out[12:16])


def test_run_chunks_runs_here_in_chunks_of_64_by_default() -> None:
    """API audit C12: its docstring offered workers and chunk_size as options, but leaving them
    out was "iter_chunk_results() missing 2 required keyword-only arguments"."""
    sizes: list[int] = []
    results = run_chunks(lambda chunk: [x * 2 for x in chunk], range(130), lambda chunk, why: [],
                         progress=sizes.append)
    assert results == [x * 2 for x in range(130)]
    assert sizes == [64, 64, 2]


def _data_missing(chunk: list[int]) -> list[int]:
    from paralign.errors import ResourceMissingError

    raise ResourceMissingError("WordNet not found: set NLTK_DATA")


def _extra_missing(chunk: list[int]) -> list[int]:
    from paralign.errors import ExtraMissingError

    raise ExtraMissingError("--preset contextual", missing="torch")


@pytest.mark.parametrize(("task", "error", "said"), [
    (_data_missing, "ResourceMissingError", "WordNet not found: set NLTK_DATA"),
    (_extra_missing, "ExtraMissingError", "needs the optional extra 'neural' (torch is not installed)"),
])
def test_missing_data_on_a_worker_stops_the_job_naming_the_worker(batch_on_dask, task, error, said) -> None:
    """A worker without the data (NLTK_DATA unset there) reported every chunk failed
    ("worker failed: ResourceMissingError ..."); it stops the job, as a ConfigurationError does.
    The message names the worker: it said only "NLTK stop words not found: set NLTK_DATA ...",
    to a user whose own NLTK_DATA was set (`align --scheduler` to a worker started without it).
    The error keeps its class (an ExtraMissingError is still an ImportError)."""
    from paralign import errors

    with pytest.raises(getattr(errors, error)) as raised:
        run_chunks(task, range(8), _failed, workers=1, chunk_size=2, progress=None)
    workers = set(batch_on_dask.scheduler_info["workers"])
    where, _, rest = str(raised.value).removeprefix("on the Dask worker ").partition(": ")
    assert where in workers and said in rest, str(raised.value)


@pytest.mark.parametrize("workers", [2.5, None, "2", True])
def test_workers_that_is_not_a_whole_number_is_a_configuration_error(workers) -> None:
    """API audit: `similarity_many(pairs, workers=None)` or `workers='2'` was a TypeError from
    the `< 1` test, and 2.5 was taken (one worker here, a cluster of 2.5 elsewhere)."""
    with pytest.raises(ConfigurationError, match="workers must be a whole number"):
        run_chunks(_square_unless_negative, [1, 2], _failed, workers=workers, chunk_size=1)


def _pid(chunk: list[int]) -> list[int]:
    return [os.getpid() for _ in chunk]


def test_parallel_starts_one_local_cluster_for_every_job_of_its_block(request) -> None:
    """Without a block each call given workers > 1 starts (and stops) a cluster of its own,
    seconds a call; in a `parallel` block the calls share one, started when the first needs it."""
    import cloudpickle

    from paralign import parallel

    started: list[dict] = []
    cloudpickle.register_pickle_by_value(request.module)
    try:
        with parallel(workers=2, on_start=started.append):
            assert started == []  # nothing started before a job needs it
            first = run_chunks(_pid, range(8), _failed, chunk_size=2)
            second = run_chunks(_pid, range(8), _failed, chunk_size=2)
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)
    assert len(started) == 1 and started[0]["workers"] == 2 and started[0]["local"]
    used = set(first) | set(second)
    assert os.getpid() not in used and len(used) <= 2  # the one cluster's two worker processes


def test_parallel_runs_on_a_client_the_caller_holds_and_leaves_it_open(dask_cluster, request) -> None:
    import cloudpickle
    from distributed import Client

    from paralign import parallel

    cloudpickle.register_pickle_by_value(request.module)
    try:
        with Client(dask_cluster) as client:
            with parallel(client=client):
                pids = run_chunks(_pid, range(8), _failed, chunk_size=2)  # workers=1, yet on the cluster
            assert client.status == "running"
            worker_pids = set(client.run(os.getpid).values())
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)
    assert set(pids) <= worker_pids and os.getpid() not in pids


def test_parallel_takes_a_client_or_cluster_settings_not_both(dask_cluster) -> None:
    from distributed import Client

    from paralign import parallel

    with Client(dask_cluster) as client, pytest.raises(ConfigurationError, match="not both"), \
            parallel(workers=2, client=client):
        pass


def test_parallel_with_one_worker_and_no_scheduler_stays_in_this_process(monkeypatch) -> None:
    from paralign import parallel

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    with parallel():
        assert set(run_chunks(_pid, range(8), _failed, chunk_size=2)) == {os.getpid()}


def test_parallel_runs_on_a_client_that_is_not_dask_s_default(dask_cluster, request, monkeypatch) -> None:
    """A client made with ``set_as_default=False`` (and no other client open): the runner waited
    through ``distributed.wait``, which uses Dask's default client, so every chunk came back
    "worker failed: ValueError: No clients found" instead of its results."""
    import cloudpickle
    import distributed.client
    from distributed import Client

    from paralign import parallel

    monkeypatch.setattr(distributed.client, "_global_clients", {})  # no default client in this test
    cloudpickle.register_pickle_by_value(request.module)
    try:
        with Client(dask_cluster, set_as_default=False) as client, parallel(client=client):
            out = run_chunks(_square_unless_negative, range(10), _failed, chunk_size=2)
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)
    assert out == [x * x for x in range(10)]


class _Stop(BaseException):
    """A library's own BaseException (not an Exception)."""


def _square_unless_stopped(chunk: list[int]) -> list[int]:
    if 5 in chunk:
        raise _Stop("stop at 5")
    if 9 in chunk:
        raise KeyboardInterrupt
    return [x * x for x in chunk]


@pytest.mark.timeout(120)
def test_a_task_raising_a_base_exception_on_a_worker_fails_its_chunk_only(batch_on_dask) -> None:
    """A BaseException that is not an Exception hung the batch for ever (Dask sent it back to the
    client, where it broke the event loop result() waits on); KeyboardInterrupt killed the worker
    on each of Dask's retries, then the chunk came back as KilledWorker."""
    out = run_chunks(_square_unless_stopped, range(12), _failed, workers=2, chunk_size=4)
    assert out[:4] == [0, 1, 4, 9]
    assert out[4:8] == ["worker failed: RuntimeError: the task raised _Stop: stop at 5"] * 4
    assert out[8:] == ["worker failed: RuntimeError: the task raised KeyboardInterrupt: "] * 4


def _broken_after(n: int) -> Iterator[int]:
    """An input whose reading fails after `n` items (a gzip file broken near its end, say)."""
    yield from range(n)
    raise OSError("broken input")


def _until_raised(chunks: Iterator[list[int]]) -> tuple[list[int], str]:
    got: list[int] = []
    with pytest.raises(OSError, match="broken input") as raised:
        for chunk in chunks:
            got.extend(chunk)
    return got, str(raised.value)


@pytest.mark.parametrize(("n", "cluster"), [(7, False), (30, True)])
def test_an_input_failing_midway_gives_every_chunk_read_before_it_as_one_process_does(
        n: int, cluster: bool, request, monkeypatch) -> None:
    """The chunks read before the input failed were dropped with more than one worker: on a
    cluster those in flight were cancelled, and with `workers` > 1 but a first chunk only (the
    in-process path) the failure reading the second lost the first."""
    from paralign.cluster import ClusterOptions
    from paralign.workers import runner

    monkeypatch.delenv("PARALIGN_SCHEDULER", raising=False)
    one = _until_raised(iter_chunk_results(_square_unless_negative, _broken_after(n), _failed, workers=1, chunk_size=4))
    assert one == ([x * x for x in range(n // 4 * 4)], "broken input")
    if cluster:
        request.getfixturevalue("batch_on_dask")
        many = _until_raised(iter_chunk_results(_square_unless_negative, _broken_after(n), _failed, workers=2,
                                                chunk_size=4))
    else:  # --workers 2 with one chunk read before the failure: no cluster started
        with runner(ClusterOptions(workers=2)):
            many = _until_raised(iter_chunk_results(_square_unless_negative, _broken_after(n), _failed, workers=2,
                                                    chunk_size=4))
    assert many == one


def test_a_batch_left_after_its_client_closed_ends_quietly(dask_cluster, request) -> None:
    """`align --workers 2 | head -1`: the broken pipe leaves the command's runner block, closing
    its client, before the results generator is finalised; its clean-up then cancelled the
    chunks in flight on the closed client and printed "Exception ignored ... RuntimeError:
    IOLoop is closed" on stderr."""
    import cloudpickle
    from distributed import Client

    from paralign.cluster import ClusterOptions
    from paralign.workers import on_client

    cloudpickle.register_pickle_by_value(request.module)
    try:
        with Client(dask_cluster, set_as_default=False) as client, \
                on_client(client, ClusterOptions(scheduler=dask_cluster.scheduler_address)):
            chunks = iter_chunk_results(_square_unless_negative, range(100), _failed, workers=2, chunk_size=2)
            assert next(chunks) == [0, 1]
        chunks.close()  # raised ClosedClientError (the CLI, its loop gone too: IOLoop is closed)
    finally:
        cloudpickle.unregister_pickle_by_value(request.module)


@pytest.mark.parametrize("size", [0, -3, 2.5, "4", None, True])
def test_a_chunk_size_that_is_not_a_count_is_a_configuration_error(size) -> None:
    """As `workers`: `align_pairs(pairs, chunk_size=0)` (or -3, or True) silently ran chunks of
    one pair, and 2.5, "4" or None raised islice's or max's own ValueError or TypeError."""
    with pytest.raises(ConfigurationError, match="chunk_size"):
        run_chunks(_square_unless_negative, [1, 2], _failed, chunk_size=size)


def _unpicklable_for_5(chunk: list[int]) -> list[object]:
    import threading

    return [threading.Lock() if x == 5 else x for x in chunk]


def test_a_result_that_cannot_be_sent_back_fails_its_chunk_in_one_line(batch_on_dask) -> None:
    """Dask's error for a result it cannot pickle holds its traceback in its message, which was
    each failed item's reason, so each pair's warning printed a traceback."""
    out = run_chunks(_unpicklable_for_5, range(12), _failed, workers=2, chunk_size=4)
    assert out[:4] == [0, 1, 2, 3] and out[8:] == [8, 9, 10, 11]
    assert out[4:8] == ["worker failed: TypeError: Could not serialize object of type lock"] * 4


def test_parallel_names_a_client_that_is_not_an_open_dask_client(dask_cluster) -> None:
    """parallel(client=...) given a LocalCluster, the likely slip, or a str failed with
    "'LocalCluster' object has no attribute 'scheduler'"; a closed client failed in Dask."""
    from distributed import Client

    from paralign.errors import ConfigurationError, InputTypeError

    said = r"client must be a distributed\.Client \(pass Client\(cluster\) for a cluster you started\), not LocalCluster"
    with pytest.raises(InputTypeError, match=said), parallel(client=dask_cluster):
        pass
    with pytest.raises(InputTypeError, match=r"client must be a distributed\.Client, not str 'x'"), parallel(client="x"):
        pass
    client = Client(dask_cluster, set_as_default=False)
    client.close()
    with pytest.raises(ConfigurationError, match=r"client must be open, but this Dask client is closed"), \
            parallel(client=client):
        pass


@pytest.mark.parametrize("options, said", [
    ({"on_start": "print"}, r"on_start must be a function .* not str 'print'"),
    ({"memory_limit": ["2GB"]}, r"memory limit \['2GB'\] is not a size such as 2GB"),
])
def test_parallel_names_a_bad_setting_before_any_work(options, said) -> None:
    from paralign.errors import ParalignError

    with pytest.raises(ParalignError, match=said), parallel(**options):
        pass


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), "30", True])
def test_a_connect_timeout_that_is_not_a_positive_number_of_seconds_is_refused(timeout) -> None:
    from paralign.cluster import ClusterOptions
    from paralign.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match=r"connect_timeout must be a number of seconds above 0"):
        ClusterOptions(connect_timeout=timeout)
    assert ClusterOptions(connect_timeout=0.5).connect_timeout == 0.5

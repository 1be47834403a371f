"""litellm imported ahead of the first call: once, in a thread, waited for by a call that needs it."""

from __future__ import annotations

import gc
import sys
import threading
import types

import pytest

from shape_asserts.asking import call


@pytest.fixture
def slow_import(monkeypatch):
    """An import that takes until the test lets it finish, and counts how often it ran."""
    release = threading.Event()
    runs: list[str] = []

    def fake_import():
        runs.append(threading.current_thread().name)
        assert release.wait(10)
        return object()

    monkeypatch.setattr(call, "_LITELLM", None)
    monkeypatch.setattr(call, "_import_litellm", fake_import)
    return release, runs


def test_a_call_during_a_preload_waits_for_that_import_instead_of_starting_another(slow_import):
    release, runs = slow_import
    thread = call.preload_litellm()
    got: list[object] = []
    caller = threading.Thread(target=lambda: got.append(call.load_litellm()))
    caller.start()
    caller.join(0.2)
    assert caller.is_alive()  # waiting on the preload
    release.set()
    thread.join(10)
    caller.join(10)
    assert runs == ["shape-asserts-litellm-import"]
    assert got == [call._LITELLM] and got[0] is not None


def test_a_failed_preload_leaves_the_import_to_the_first_call(monkeypatch):
    attempts: list[int] = []

    def broken():
        attempts.append(1)
        raise ImportError("no litellm here")

    monkeypatch.setattr(call, "_LITELLM", None)
    monkeypatch.setattr(call, "_import_litellm", broken)
    call.preload_litellm().join(10)
    with pytest.raises(ImportError, match="no litellm here"):
        call.load_litellm()
    assert len(attempts) == 2


def test_importing_litellm_leaves_its_objects_to_the_os_at_exit(monkeypatch):
    """At exit the heap is frozen (gc.freeze): Python's teardown then skips seconds of cycle collection."""
    registered: list[object] = []
    monkeypatch.setattr(call.atexit, "register", registered.append)
    monkeypatch.setitem(sys.modules, "litellm", types.SimpleNamespace())
    monkeypatch.setattr("shape_asserts.asking.reference.register_with_litellm", lambda litellm: None)
    monkeypatch.setattr("shape_asserts.asking.bounded.install", lambda: None)  # (it patches litellm's own)
    call._import_litellm()
    assert registered == [call.gc.freeze]


@pytest.mark.parametrize("collecting", [True, False], ids=["collector-on", "collector-off"])
def test_litellm_is_imported_without_the_cycle_collector_then_frozen(monkeypatch, tmp_path, collecting):
    """The collector walked the import's growing heap again and again (a fifth of its time); it is
    off meanwhile, what the import made is frozen after, and the collector is left as it was."""
    (tmp_path / "litellm.py").write_text("import gc\nCOLLECTING = gc.isenabled()\nKEPT = [[] for _ in range(1000)]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    # (set, not deleted: undone, the fake imported here leaves; left in sys.modules, every later
    # import of litellm in this process got it)
    monkeypatch.setitem(sys.modules, "litellm", None)
    del sys.modules["litellm"]
    monkeypatch.setattr("shape_asserts.asking.bounded.install", lambda: None)
    monkeypatch.setattr(call.atexit, "register", lambda fn: None)
    was_frozen = gc.get_freeze_count()
    (gc.enable if collecting else gc.disable)()
    try:
        fake = call._import_litellm()
        assert gc.isenabled() is collecting
        assert gc.get_freeze_count() >= was_frozen + 1000  # the import's objects among the frozen
    finally:
        gc.enable()
        if not was_frozen:
            gc.unfreeze()
    assert fake.COLLECTING is False
    assert fake.suppress_debug_info is True

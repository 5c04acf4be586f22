import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Watchdog } from "./watchdog.ts";

describe("Watchdog: one timer for every request's bound", () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] }));
  afterEach(() => void vi.useRealTimers());

  const setup = () => {
    const pending = new Set<number>();
    const expired: string[] = [];
    const watchdog = new Watchdog((id) => pending.has(id), (reason) => expired.push(reason));
    return { pending, expired, watchdog };
  };

  it("a request still unanswered at its bound expires the family, naming it and the bound", () => {
    const { pending, expired, watchdog } = setup();
    pending.add(1);
    watchdog.watch(1, 1500, "compress");
    vi.advanceTimersByTime(1499);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["the engine's compress did not return within 1.5 s; its process was stopped"]);
  });

  it("answered requests never expire, however many pass while one stays in flight", () => {
    const { pending, expired, watchdog } = setup();
    pending.add(1);
    watchdog.watch(1, 60_000, "compress");
    for (let id = 2; id < 500; id++) {
      pending.add(id);
      watchdog.watch(id, 1000, "should_compress");
      pending.delete(id);
    }
    vi.advanceTimersByTime(59_999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["the engine's compress did not return within 60 s; its process was stopped"]);
  });

  it("a shorter bound sent after a longer one strikes first", () => {
    const { pending, expired, watchdog } = setup();
    pending.add(1).add(2);
    watchdog.watch(1, 60_000, "compress");
    watchdog.watch(2, 2000, "shutdown");
    vi.advanceTimersByTime(2000);
    expect(expired).toEqual(["the engine's shutdown did not return within 2 s; its process was stopped"]);
  });

  it("a later request past an earlier one's answer is still bounded", () => {
    const { pending, expired, watchdog } = setup();
    pending.add(1);
    watchdog.watch(1, 1000, "first");
    vi.advanceTimersByTime(600);
    pending.delete(1);
    watchdog.idle();
    pending.add(2);
    watchdog.watch(2, 1000, "second");
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["the engine's second did not return within 1 s; its process was stopped"]);
  });

  it("holds the event loop open only while a request is in flight", () => {
    vi.useRealTimers();
    const spy = vi.spyOn(globalThis, "setTimeout");
    try {
      const { pending, watchdog } = setup();
      pending.add(1);
      watchdog.watch(1, 60_000, "compress");
      const timer = spy.mock.results[0]!.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(true);
      pending.delete(1);
      watchdog.idle();
      expect(timer.hasRef()).toBe(false);
      pending.add(2);
      watchdog.watch(2, 60_000, "compress");
      expect(spy).toHaveBeenCalledTimes(1);
      expect(timer.hasRef()).toBe(true);
      clearTimeout(timer);
    } finally {
      spy.mockRestore();
    }
  });
});

import v8 from 'node:v8'

/** Shared timing helpers: median of several runs, each after a warm-up, so noisy machines agree. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Median wall time in milliseconds of `runs` calls of `fn` (after one warm-up call). */
export function time(fn: () => void, runs = 5): number {
  fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn()
    samples.push(performance.now() - start)
  }
  return median(samples)
}

/** Interleaves the two workloads run by run, so drifting machine load hits both alike. */
export function compare(ours: () => void, baseline: () => void, runs = 5): { ours: number; baseline: number; ratio: number } {
  ours()
  baseline()
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < runs; i++) {
    let start = performance.now()
    ours()
    a.push(performance.now() - start)
    start = performance.now()
    baseline()
    b.push(performance.now() - start)
  }
  const o = median(a)
  const base = median(b)
  return { ours: o, baseline: base, ratio: o / base }
}

export function fmt(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(1)} µs`
}

export function ratio(r: number): string {
  return `${r.toFixed(2)}x`
}

/**
 * Wall time and bytes allocated on the JS heap by `fn`: the growth of the used heap plus what every
 * garbage collection during the call freed (V8's GC profiler reports the heap before and after each).
 */
export function allocation<T>(fn: () => T): { ms: number; bytes: number; result: T } {
  const profiler = new v8.GCProfiler()
  profiler.start()
  const usedBefore = v8.getHeapStatistics().used_heap_size
  const start = performance.now()
  const result = fn()
  const ms = performance.now() - start
  const usedAfter = v8.getHeapStatistics().used_heap_size
  let freed = 0
  for (const gc of profiler.stop().statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize
  return { ms, bytes: Math.max(0, usedAfter - usedBefore + freed), result }
}

export function bytes(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e4 ? `${(n / 1e3).toFixed(0)} KB` : `${n.toFixed(0)} B`
}

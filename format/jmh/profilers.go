package jmh

import (
	"strings"
)

// profilersOf names the JMH profilers (-prof NAME) whose results the
// secondary metrics are, comma-separated in the order of their first
// metric, "" for none. JMH labels a profiler's results (its
// org.openjdk.jmh.profile classes; JMH before 1.24 prefixes them with
// "·"):
//
//	gc.alloc.rate, gc.count, gc.time, gc.churn.*   gc (GCProfiler)
//	class.load, class.unload (and .norm)           cl (ClassloaderProfiler)
//	compiler.time.*                                comp (CompilerProfiler)
//	pauses.*                                       pauses (PausesProfiler)
//	safepoints.*                                   safepoints (SafepointsProfiler)
//	mempool.*                                      mempool (MemPoolProfiler)
//	stack                                          stack (StackProfiler)
//	asm                                            perfasm (LinuxPerfAsmProfiler)
//	ipc, cpi                                       perf (LinuxPerfProfiler)
//	CPI, IPC                                       perfnorm (LinuxPerfNormProfiler)
//	jfr                                            jfr (JavaFlightRecorderProfiler)
//	async-*                                        async (AsyncProfiler)
//
// Other labels (sample mode's percentiles "method·p0.50", a benchmark's
// own @AuxCounters, events of perfnorm without CPI) name no profiler.
func profilersOf(secondary []metric) string {
	var out []string
	for i := range secondary {
		p := profilerOf(secondary[i].key)
		if p == "" {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == p
		}
		if !dup {
			out = append(out, p)
		}
	}
	return strings.Join(out, ",")
}

// profilerOf is the profiler whose result label is key, "" for none.
func profilerOf(key string) string {
	k := strings.TrimPrefix(key, "·")
	prefix := func(ps ...string) bool {
		for _, p := range ps {
			if k == p || strings.HasPrefix(k, p+".") {
				return true
			}
		}
		return false
	}
	switch {
	case prefix("gc"):
		return "gc"
	case prefix("class.load", "class.unload"):
		return "cl"
	case prefix("compiler.time"):
		return "comp"
	case prefix("pauses"):
		return "pauses"
	case prefix("safepoints"):
		return "safepoints"
	case prefix("mempool"):
		return "mempool"
	case k == "stack":
		return "stack"
	case k == "asm":
		return "perfasm"
	case k == "ipc" || k == "cpi" || k == "perf":
		return "perf"
	case k == "CPI" || k == "IPC":
		return "perfnorm"
	case k == "jfr":
		return "jfr"
	case strings.HasPrefix(k, "async-") || k == "async":
		return "async"
	}
	return ""
}

// Package reconfigure replays dynamic reconfiguration of software
// microbenchmarks (Laaber, Würsten, Gall, Leitner, "Dynamically
// reconfiguring software microbenchmarks: reducing execution time without
// sacrificing result quality", ESEC/FSE 2020) on recorded results, and
// evaluates the result quality (the paper's Table 2) and the time saved
// (Table 3) against a static configuration.
//
// It sits in benchtrim's flow after the ingesters: it reads one
// table.Series per benchmark run from the canonical table, recorded without
// warmup iterations (JMH -wi 0), so that every iteration of every fork is
// present, and decides, as the paper's post-hoc evaluation did, where
// dynamic reconfiguration would have stopped:
//
//	for each fork f = 1 … f_max (Algorithm 1):
//	    warmup: after iteration i >= wi_min, stop when the criterion is
//	            stable over the window of the last s_W cumulative sets
//	            M_j = S_1 ∪ … ∪ S_j of the fork's iterations (Eq. 1),
//	            at the latest after wi_max iterations;
//	    measure the next mi iterations (the fork's set D_f);
//	    after fork f >= f_min, stop when the criterion is stable over the
//	    window of the cumulative fork sets F_g = D_1 ∪ … ∪ D_g (Eq. 2).
//
// S_j is the criterion sample of iteration j: for sample-mode data a
// weighted sample (with replacement, probability proportional to the
// histogram counts) of 1,000 invocations after dropping invocations slower
// than 10× the iteration's median; for other modes the iteration's mean.
// Samples are used for the stoppage criteria only; the A/A test and the
// time model use the recorded data.
//
// Criteria (Options.Thresholds): CV, stable when the range (max − min) of
// the window's coefficients of variation is at most 0.01; RCIW, stable when
// the range of the window's relative 99 % confidence interval widths
// (hierarchical bootstrap over iterations, and forks for Eq. 2, 1,000
// resamples) is at most 0.03; KLD, stable when the mean of the window's
// Kullback-Leibler stability probabilities p(M_(j−1), M_j) (He et al.,
// PT4Cloud, ESEC/FSE 2019; kernel densities on 1,000 strips over the
// 1.5·IQR fences) exceeds 0.99.
//
// Quality: per benchmark and criterion an A/A test between the static
// baseline (the first 50 iterations of each of 5 forks are warmup, the next
// 50 are measured) and the dynamic measurements: the hierarchical bootstrap
// confidence interval of the ratio of means (10,000 resamples over forks,
// iterations and invocations); "not different" when it contains 1; change
// rate |mean_dyn/mean_base − 1|. Time: per benchmark
//
//	t_dyn    = Σ_(forks used) [ (1 + o)·wi_f·wt + mi_f·mt ]
//	t_static = forks_s · (wi_s·wt + mi_s·mt)
//
// with the criterion's overhead o (CV 0.88 %, RCIW 10.92 %, KLD 4.32 % in
// the paper) and wt = mt the iteration time of the data (1 s when unknown).
//
// Randomness (invocation samples, bootstrap) comes from stats streams keyed
// by (seed, benchmark key, purpose, fork, iteration), so results do not
// depend on the number of workers. Benchmarks are replayed in parallel.
package reconfigure

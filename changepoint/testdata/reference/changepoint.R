# Steps 2 and 4 of the reference vectors (see README.md, "Re-running"):
# R changepoint 2.3 on the series, every number printed with %.17g.
#
#   Rscript changepoint.R run      WORKDIR   # step 2: r_<series>.json
#   Rscript changepoint.R selected WORKDIR   # step 4: sel_<series>.json
#
# WORKDIR holds <series>.f64 (the series as little-endian float64, written
# by `series.py --binary`) and <series>.csv. Step 2 runs, per series, the
# four calls the JSON files describe (cpt.meanvar and cpt.mean with
# penalty "Manual" at 15·log n, cpt.meanvar with penalty "CROPS" on
# c(4, 1e5) and c(4·log n, 1e5·log n)), changepoint::PELT on the package's
# own sumstat and on sums accumulated in plain double, and an exact O(n²)
# Optimal Partitioning. Inside the package namespace it wraps PELT and
# range_of_penalties, only to record the calls CROPS makes and its cpt.out.
# Step 4 reads k_<series>.sel (kneedle.py) and runs cpt.meanvar with
# penalty "Manual" at every penalty Kneedle selected and at ×(1 ± 1e-6).
suppressPackageStartupMessages(library(changepoint))

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2 || !(args[1] %in% c("run", "selected"))) {
  stop("usage: Rscript changepoint.R run|selected WORKDIR")
}
mode <- args[1]
dir <- args[2]

# --- a small JSON writer: numbers as %.17g, non-finite numbers as strings.
num <- function(v) {
  if (is.na(v) && !is.nan(v)) return("null")
  if (is.infinite(v)) return(if (v > 0) "\"Inf\"" else "\"-Inf\"")
  if (is.nan(v)) return("\"NaN\"")
  sprintf("%.17g", v)
}
str <- function(s) {
  s <- gsub("\\\\", "\\\\\\\\", s)
  s <- gsub("\"", "\\\\\"", s)
  paste0("\"", s, "\"")
}
# A plain R value to JSON: a list with names is an object, a list without
# is an array, I(x) keeps a length-1 vector an array, NULL is null.
json <- function(x) {
  if (is.null(x)) return("null")
  if (is.list(x)) {
    parts <- vapply(x, json, "")
    if (!is.null(names(x))) {
      return(paste0("{", paste0(str(names(x)), ":", parts, collapse = ","), "}"))
    }
    return(paste0("[", paste(parts, collapse = ","), "]"))
  }
  one <- function(v) {
    if (is.logical(v)) return(if (is.na(v)) "null" else if (v) "true" else "false")
    if (is.character(v)) return(str(v))
    num(as.double(v))
  }
  parts <- vapply(as.list(x), one, "")
  if (length(x) == 1 && !inherits(x, "AsIs")) return(parts)
  paste0("[", paste(parts, collapse = ","), "]")
}
arr <- function(x) I(as.vector(x))

read_series <- function(name) {
  path <- file.path(dir, paste0(name, ".f64"))
  n <- file.size(path) / 8
  readBin(path, "double", n = n, size = 8, endian = "little")
}

# --- segment statistics, as the package's C code computes them.
sumstat_of <- function(y) {
  mu <- mean(y)
  cbind(c(0, cumsum(y)), c(0, cumsum(y^2)), cumsum(c(0, (y - mu)^2)))
}
# The same sums accumulated in plain double (R's cumsum uses long double).
sumstat_double <- function(y) {
  acc <- function(v) Reduce(`+`, v, accumulate = TRUE)
  mu <- mean(y)
  cbind(c(0, acc(y)), c(0, acc(y^2)), acc(c(0, (y - mu)^2)))
}
# C: mll_meanvar and mll_mean of cost_general_functions.c, vectorised over
# segment starts s for one end t (len = t - s).
seg_cost <- function(cost, ss, s, t) {
  x <- ss[t + 1, 1] - ss[s + 1, 1]
  x2 <- ss[t + 1, 2] - ss[s + 1, 2]
  len <- t - s
  if (cost == "mean.norm") return(x2 - (x * x) / len)
  sigsq <- (x2 - ((x * x) / len)) / len
  sigsq[sigsq <= 0] <- 0.00000000001
  len * (log(2 * pi) + log(sigsq) + 1)
}
# Exact Optimal Partitioning with the same cost, clamp and minimum segment
# length: F(0) = -pen, F(t) = min over s in {0} ∪ [m, t-m] of
# F(s) + C(s, t) + pen, first minimum on ties; returns F(n) and the
# segment ends (1-based, ending with n).
exact_op <- function(ss, cost, pen, m) {
  n <- nrow(ss) - 1
  f <- rep(Inf, n + 1)
  last <- integer(n + 1)
  f[1] <- -pen
  for (t in m:n) {
    s <- 0
    if (t - m >= m) s <- c(0, m:(t - m))
    v <- (f[s + 1] + seg_cost(cost, ss, s, t)) + pen
    w <- which.min(v)
    f[t + 1] <- v[w]
    last[t + 1] <- s[w]
  }
  ends <- integer(0)
  t <- n
  while (t > 0) {
    ends <- c(t, ends)
    t <- last[t + 1]
  }
  list(F = f[n + 1], ends = ends)
}

manual_block <- function(y, func) {
  n <- length(y)
  pen <- 15 * log(n)
  cost <- if (func == "meanvar") "meanvar.norm" else "mean.norm"
  m <- if (func == "meanvar") 2 else 1
  call <- if (func == "meanvar") "cpt.meanvar" else "cpt.mean"
  el <- system.time(obj <- if (func == "meanvar") {
    cpt.meanvar(y, penalty = "Manual", pen.value = pen, method = "PELT", test.stat = "Normal")
  } else {
    cpt.mean(y, penalty = "Manual", pen.value = pen, method = "PELT", test.stat = "Normal")
  })[["elapsed"]]
  ends <- obj@cpts
  starts <- c(0, ends[-length(ends)])
  ss <- sumstat_of(y)
  internal <- changepoint::PELT(ss, pen = pen, cost_func = cost, minseglen = m)
  dbl <- changepoint::PELT(sumstat_double(y), pen = pen, cost_func = cost, minseglen = m)
  op <- exact_op(ss, cost, pen, m)
  ncp <- length(cpts(obj))
  fn <- internal$lastchangelike[n + 1]
  means <- param.est(obj)$mean
  vars <- if (func == "meanvar") param.est(obj)$variance else
    mapply(function(a, b) { v <- y[(a + 1):b]; mean((v - mean(v))^2) }, starts, ends)
  list(
    r_call = sprintf("%s(data, penalty=\"Manual\", pen.value=15*log(n), method=\"PELT\", test.stat=\"Normal\")  [minseglen default %d]", call, m),
    pen_value = pen,
    minseglen = m,
    cost_func = cost,
    cpts = arr(cpts(obj)),
    ncpts = ncp,
    seg_ends = arr(ends),
    seg_lengths = arr(ends - starts),
    seg_means = arr(means),
    seg_variances_mle = arr(vars),
    seg_variances_source = if (func == "meanvar") "R param.est(obj)$variance (var()*(len-1)/len)" else
      "not produced by cpt.mean; computed by driver as mean((v-mean(v))^2) per segment",
    seg_costs_cumsum_formula = arr(mapply(function(a, b) seg_cost(cost, ss, a, b), starts, ends)),
    internal_F_n = fn,
    internal_unpenalised_cost = fn - ncp * pen,
    logLik_r = arr(logLik(obj)),
    same_result_with_double_cumsum = identical(dbl$cpts, internal$cpts),
    double_cumsum_F_n = dbl$lastchangelike[n + 1],
    exact_op_F_n = op$F,
    exact_op_seg_ends = arr(op$ends),
    pelt_equals_exact_op = identical(as.integer(op$ends), as.integer(ends)),
    elapsed_s = el
  )
}

# --- recording CROPS: wrap PELT and range_of_penalties in the namespace.
rec <- new.env()
ns <- asNamespace("changepoint")
orig_PELT <- get("PELT", envir = ns)
orig_rop <- get("range_of_penalties", envir = ns)
wrapped_PELT <- function(sumstat, pen = 0, cost_func = "norm.mean", shape = 1, minseglen = 1) {
  ans <- orig_PELT(sumstat, pen = pen, cost_func = cost_func, shape = shape, minseglen = minseglen)
  n <- length(sumstat[, 1]) - 1
  nseg <- length(ans[[2]])
  rec$calls[[length(rec$calls) + 1]] <- arr(c(pen, nseg, ans[[3]][n + 1], ans[[3]][n + 1] - (ans[[4]][n + 1] - 1) * pen))
  ans
}
wrapped_rop <- function(...) {
  out <- orig_rop(...)
  rec$out <- out
  out
}
environment(wrapped_PELT) <- environment()
for (nm in c("PELT", "range_of_penalties")) unlockBinding(nm, ns)
assign("PELT", wrapped_PELT, envir = ns)
assign("range_of_penalties", wrapped_rop, envir = ns)

crops_block <- function(y, lo, hi) {
  rec$calls <- list()
  rec$out <- NULL
  el <- NA
  msgs <- capture.output(el <- system.time(
    obj <- cpt.meanvar(y, penalty = "CROPS", pen.value = c(lo, hi), method = "PELT", test.stat = "Normal")
  )[["elapsed"]])
  full <- cpts.full(obj)
  segs <- rec$out$changepoints
  cpo <- rec$out$cpt.out
  list(
    r_call = sprintf("cpt.meanvar(data, penalty=\"CROPS\", pen.value=c(%s, %s), method=\"PELT\", test.stat=\"Normal\")  [minseglen default 2]",
                     sprintf("%.17g", lo), sprintf("%.17g", hi)),
    pen_value = arr(c(lo, hi)),
    pen_value_full = arr(pen.value.full(obj)),
    cpts_full_dim = arr(dim(full)),
    # class_input builds cpts.full as t(sapply(segs, '[', 1:max(lengths)));
    # when no segmentation has more than one change point, sapply gives a
    # vector and cpts.full one row.
    cpts_full_transposed_quirk = max(lengths(segs)) <= 1,
    # cpts.full as R returns it, row by row (NA = null), for Traini's
    # counting of the entries > 0 per row.
    cpts_full_rows = lapply(seq_len(nrow(full)), function(i) arr(full[i, ])),
    cpt_out_beta_interval = arr(cpo["beta_interval", ]),
    cpt_out_numberofchangepoints_row = arr(cpo["numberofchangepoints", ]),
    cpt_out_penalised_cost_row = arr(cpo["penalised_cost", ]),
    segmentations = lapply(segs, function(s) arr(s)),
    printed_messages = arr(msgs),
    pelt_calls_in_order = list(
      columns = arr(c("penalty", "n_segments_incl_last", "F_n_penalised", "unpenalised_cost")),
      rows = rec$calls
    ),
    n_pelt_runs = length(rec$calls),
    elapsed_s = el
  )
}

at_penalty <- function(y, pen) {
  obj <- cpt.meanvar(y, penalty = "Manual", pen.value = pen, method = "PELT", test.stat = "Normal")
  list(
    pen_value = pen,
    cpts = arr(cpts(obj)),
    seg_ends = arr(obj@cpts),
    seg_means = arr(param.est(obj)$mean),
    seg_variances_mle = arr(param.est(obj)$variance)
  )
}

names <- sub("\\.f64$", "", list.files(dir, pattern = "^s[0-9][0-9]_.*\\.f64$"))
for (name in names) {
  y <- read_series(name)
  n <- length(y)
  if (mode == "run") {
    csv <- read.csv(file.path(dir, paste0(name, ".csv")))$value
    res <- list(
      series = name,
      n = n,
      environment = list(
        r_version = R.version.string,
        changepoint_version = as.character(packageVersion("changepoint")),
        zoo_version = as.character(packageVersion("zoo")),
        platform = R.version$platform
      ),
      r_read_csv_identical_to_binary = identical(csv, y),
      pelt_meanvar_manual = manual_block(y, "meanvar"),
      pelt_mean_manual = manual_block(y, "mean"),
      crops_meanvar_4_1e5 = crops_block(y, 4, 1e5),
      crops_meanvar_traini = crops_block(y, 4 * log(n), 1e5 * log(n))
    )
    writeLines(json(res), file.path(dir, paste0("r_", name, ".json")))
  } else {
    # k_<series>.sel (kneedle.py): one line per CROPS block, its name and
    # the selected penalties as %.17g text (read back as the same doubles).
    sel <- readLines(file.path(dir, paste0("k_", name, ".sel")))
    res <- list()
    for (line in sel) {
      f <- strsplit(line, " ")[[1]]
      block <- f[1]
      pens <- as.double(f[-1])
      res[block] <- list(lapply(pens, function(p) {
        r <- at_penalty(y, p)
        r$at_pen_times_1_minus_1e6 <- at_penalty(y, p * (1 - 1e-6))
        r$at_pen_times_1_plus_1e6 <- at_penalty(y, p * (1 + 1e-6))
        r
      }))
    }
    writeLines(json(res), file.path(dir, paste0("sel_", name, ".json")))
  }
  cat(name, "\n")
}

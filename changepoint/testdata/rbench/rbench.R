# Benchmark-only: times R changepoint on one series for docs/changepoint.md
# (Speed). Needs R with the changepoint package installed; see run.sh.
#
#   Rscript rbench.R TASK FILE REPS [OUT]
#
# TASK is none (load the package and read the series only: the start-up
# to subtract), pelt-meanvar, pelt-mean (Manual penalty 15*log(n)),
# crops-traini (pen.value = c(4, 1e5)*log(n)) or crops-4-1e5. It prints
# one line "rbench TASK n REPS user sys elapsed" with the in-process CPU
# seconds of the REPS calls. With OUT, the last CROPS result is written
# there: "pen" and pen.value.full, then one "seg" line per row of
# cpts.full (NA dropped), every number with %.17g.
args <- commandArgs(trailingOnly = TRUE)
task <- args[1]
file <- args[2]
reps <- as.integer(args[3])
suppressMessages(library(changepoint))
x <- read.csv(file)$value
n <- length(x)
run <- switch(task,
  "none" = function() NULL,
  "pelt-meanvar" = function() cpt.meanvar(x, penalty = "Manual", pen.value = 15 * log(n), method = "PELT", test.stat = "Normal"),
  "pelt-mean" = function() cpt.mean(x, penalty = "Manual", pen.value = 15 * log(n), method = "PELT", test.stat = "Normal"),
  "crops-traini" = function() cpt.meanvar(x, penalty = "CROPS", pen.value = c(4 * log(n), 1e5 * log(n)), method = "PELT"),
  "crops-4-1e5" = function() cpt.meanvar(x, penalty = "CROPS", pen.value = c(4, 1e5), method = "PELT"),
  stop("unknown task ", task))
t0 <- proc.time()
for (i in seq_len(reps)) o <- suppressWarnings(capture.output(r <- run()))
t1 <- proc.time() - t0
cat(sprintf("rbench %s %d %d %.3f %.3f %.3f\n", task, n, reps, t1[["user.self"]], t1[["sys.self"]], t1[["elapsed"]]))
if (length(args) >= 4 && startsWith(task, "crops")) {
  out <- file(args[4], "w")
  writeLines(paste(c("pen", sprintf("%.17g", pen.value.full(r))), collapse = " "), out)
  full <- cpts.full(r)
  for (k in seq_len(nrow(full))) {
    row <- full[k, ]
    writeLines(paste(c("seg", row[!is.na(row)]), collapse = " "), out)
  }
  close(out)
}

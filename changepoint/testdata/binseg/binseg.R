# Writes binseg.txt: R changepoint's binary segmentation (cpt.mean and
# cpt.meanvar with method = "BinSeg", penalty = "Manual") on the reference
# series (penalties 15·log n, 2·log n and 15·log n·var(x), the last for
# the mean cost, which assumes unit variance), for TestBinSegReference.
# Run from this directory with changepoint 2.3 installed:
#
#   Rscript binseg.R > binseg.txt
#
# One block per (series, cost, Q, penalty): a header line
#   case FILE COST Q PEN op.cpts
# then the line "cpts" with cps[1, ] (the change points in the order found)
# and the line "gain" with cps[2, ] (2 × the likelihood ratio of each),
# every number with %.17g.
suppressMessages(library(changepoint))
files <- sort(Sys.glob("../reference/s*.csv"))
f17 <- function(v) paste(sprintf("%.17g", v), collapse = " ")
for (file in files) {
  x <- read.csv(file)$value
  n <- length(x)
  for (cost in c("mean", "meanvar")) {
    minseg <- if (cost == "mean") 1 else 2
    for (Q in c(5, 20)) {
      if (Q > n / minseg + 1 || Q > n) next
      for (pen in c(15 * log(n), 2 * log(n), 15 * log(n) * var(x))) {
        fit <- suppressWarnings(if (cost == "mean")
          cpt.mean(x, method = "BinSeg", Q = Q, penalty = "Manual", pen.value = pen, class = FALSE)
        else
          cpt.meanvar(x, method = "BinSeg", Q = Q, penalty = "Manual", pen.value = pen, class = FALSE))
        full <- suppressWarnings(if (cost == "mean")
          BINSEG(cbind(cumsum(c(0, x)), cumsum(c(0, x^2)), cumsum(c(0, (x - mean(x))^2))), pen = pen, cost_func = "mean.norm", minseglen = minseg, Q = Q)
        else
          BINSEG(cbind(cumsum(c(0, x)), cumsum(c(0, x^2)), cumsum(c(0, (x - mean(x))^2))), pen = pen, cost_func = "meanvar.norm", minseglen = minseg, Q = Q))
        stopifnot(identical(as.numeric(fit), as.numeric(full$cpts)))
        cat(sprintf("case %s %s %d %s %d\n", basename(file), cost, Q, sprintf("%.17g", pen), full$op.cpts))
        cat("cpts", full$cps[1, ], "\n")
        cat("gain", f17(full$cps[2, ]), "\n")
      }
    }
  }
}

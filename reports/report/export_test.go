package report

// DistinctLabels exports distinctLabels for tests.
var DistinctLabels = distinctLabels

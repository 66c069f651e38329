package duet

import (
	"reflect"
	"testing"
)

func TestParseSlowdowns(t *testing.T) {
	def := DefaultOptions().Slowdowns
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"0:0.15:0.01", def},
		{"0%:15%:1%", def},
		{"0,0.05,0.1", []float64{0, 0.05, 0.1}},
		{"5%, 10%", []float64{0.05, 0.1}},
		{"none", []float64{}},
	} {
		got, err := ParseSlowdowns(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSlowdowns(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"-0.1", "0.1,0.05", "x", "0:1:0", "1:0:0.1", "0:1:1e-6", "NaN"} {
		if got, err := ParseSlowdowns(bad); err == nil {
			t.Errorf("ParseSlowdowns(%q) = %v, want an error", bad, got)
		}
	}
}

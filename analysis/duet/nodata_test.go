package duet

import (
	"strings"
	"testing"
)

// TestNoDuetRowsSaysKeepUnlabelled: when every row was dropped for lack of
// an environment label the error says to use --keep-unlabelled; with
// other reasons it lists them all.
func TestNoDuetRowsSaysKeepUnlabelled(t *testing.T) {
	d := Dropped{Unlabelled: 40}
	if err := noDuetRows(d, d.warnings()); !strings.Contains(err.Error(), "use --keep-unlabelled") || !strings.Contains(err.Error(), "40 duet rows") {
		t.Errorf("unlabelled only: %v", err)
	}
	d.NoTime = 3
	err := noDuetRows(d, d.warnings())
	if !strings.Contains(err.Error(), "holds no duet rows") || !strings.Contains(err.Error(), "3 rows without timestamps dropped") ||
		!strings.Contains(err.Error(), "--keep-unlabelled keeps them") {
		t.Errorf("mixed reasons: %v", err)
	}
}

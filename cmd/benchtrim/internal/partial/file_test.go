package partial

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameInputs: parts of one input and read options agree; another
// content (same name, same size), another count of inputs or another
// --version are errors naming both files and what differs.
func TestSameInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) Input {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := HashFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	a := write("a.json", "100 200")
	b := write("b.json", "150 300")
	a2 := write("a2.json", "100 200")
	if a.Size != 7 || fmt.Sprintf("%x", a.SHA256) != "65b3b911d434a78f16b5d1e41401c9e5807dbe51881068703201ecacceb43a5e" /* sha256sum */ || a.Name != filepath.Join(dir, "a.json") {
		t.Errorf("HashFile = %+v", a)
	}
	file := func(path string, version string, ins ...Input) *File {
		return &File{Path: path, Header: Header{Inputs: ins, ReadFlags: []ReadFlag{{Name: "--version", Value: version}}}}
	}
	for _, tc := range []struct {
		x, y *File
		want string
	}{
		{file("s0", "", a), file("s1", "", a2), ""},
		{file("s0", "", a), file("s1", "", b), "s0 read input 1 " + a.Name + " (7 bytes, sha256 " + fmt.Sprintf("%x", a.SHA256[:6]) + "…), s1 read " + b.Name + " (7 bytes, sha256 " + fmt.Sprintf("%x", b.SHA256[:6]) + "…): the content differs"},
		{file("s0", "", a), file("s1", "", a, b), "s0 read 1 inputs, s1 2"},
		{file("s0", "", a), file("s1", "v2", a), `s0 was run without --version, s1 with --version "v2"`},
	} {
		err := SameInputs(tc.x, tc.y)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v", err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("err = %v, want it to start with %q", err, tc.want)
		}
	}
}

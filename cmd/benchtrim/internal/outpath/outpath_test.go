//go:build unix

package outpath

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/benchtrim/benchtrim/internal/testenv"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a", "r.csv")
	os.MkdirAll(filepath.Dir(in), 0o755)
	os.WriteFile(in, []byte("x"), 0o644)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.Mkdir(filepath.Join(dir, "sp"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "sp", "fifo.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("fifo.csv", filepath.Join(dir, "sp", "to-fifo"))
	os.Mkdir(filepath.Join(dir, "sp", "pl"), 0o755)
	os.WriteFile(filepath.Join(dir, "sp", "pl", "old.svg"), []byte("<svg/>"), 0o644)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	for _, tc := range []struct {
		name string
		outs []Output
		want string // "" for no error
	}{
		{"fine", []Output{{"-o", "out.parquet", Data, nil, nil}, {"--summary-out", "s.csv", Data, nil, nil}}, ""},
		{"off", []Output{{"-o", "", Data, nil, nil}}, ""},
		{"same path", []Output{{"-o", "a/r.csv", Data, nil, nil}}, "-o a/r.csv: is the input a/r.csv; refusing to overwrite an input"},
		{"dot dot", []Output{{"-o", "./a/../a/r.csv", Data, nil, nil}}, "is the input a/r.csv"},
		{"link", []Output{{"-o", "link.csv", Data, nil, nil}}, "-o link.csv: is the input a/r.csv"},
		{"sidecar", []Output{{"-o", "t.csv", Data, []string{"a/r.csv"}, nil}}, "-o a/r.csv: is the input"},
		{"two outputs", []Output{{"-o", "x.csv", Data, nil, nil}, {"--summary-out", "./x.csv", Data, nil, nil}}, "--summary-out ./x.csv: is also the output of -o"},
		{"extension", []Output{{"-o", "out.xlsx", Data, nil, nil}}, `-o out.xlsx: unsupported extension ".xlsx" (want .csv, .arrow or .parquet)`},
		{"csv only", []Output{{"--forks-out", "f.parquet", CSV, nil, nil}}, `want .csv)`},
		{"report", []Output{{"--table2", "t.tex", Report, nil, nil}}, ""},
		{"missing dir", []Output{{"--summary-out", "/missing/s.csv", Data, nil, nil}}, "--summary-out /missing/s.csv: directory /missing does not exist"},
		{"dir as file", []Output{{"-o", "sub", Text, nil, nil}}, "-o sub: is a directory"},
		{"dir kind", []Output{{"--plots", "sub/new", Dir, nil, nil}}, ""},
		{"dir is file", []Output{{"--plots", "a/r.csv", Dir, nil, nil}}, "exists and is not a directory"},
		{"file in dir", []Output{{"--out-dir", "a", Dir, []string{"a/plan.csv", "a/r.csv"}, nil}}, "--out-dir a: a/r.csv is the input a/r.csv; refusing to overwrite an input"},
		{"file in dir, ../", []Output{{"--out-dir", "sub/../a", Dir, []string{"sub/../a/r.csv"}, nil}}, "--out-dir sub/../a: sub/../a/r.csv is the input a/r.csv"},
		{"file in dir and -o", []Output{{"-o", "sub/plan.csv", Data, nil, nil}, {"--out-dir", "sub", Dir, []string{"sub/plan.csv"}, nil}}, "--out-dir sub: sub/plan.csv is also the output of -o"},
		{"dir holds", []Output{{"--plots", "a", Dir, nil, func(n string) bool { return filepath.Ext(n) == ".csv" }}}, "--plots a: would hold files like the input a/r.csv; refusing to overwrite an input"},
		{"dir holds, link", []Output{{"--plots", "a", Dir, nil, func(n string) bool { return filepath.Ext(n) == ".csv" }}}, "like the input link.csv"},
		{"replaced dir with other files", []Output{{"--out-dir", ".", Dir, []string{"plan.csv", "sub"}, nil}}, "--out-dir .: holds files this output does not write (a, link.csv, sp), which replacing the folder would remove"},
		{"replaced dir with own files", []Output{{"--out-dir", "sub", Dir, []string{"sub/plan.csv"}, nil}}, ""},
		{"dir holds other", []Output{{"--plots", "a", Dir, nil, func(n string) bool { return filepath.Ext(n) == ".svg" }}}, "--plots a: holds files this output does not write (r.csv), which replacing the folder would remove"},
		{"dir holds own", []Output{{"--plots", "sp/pl", Dir, nil, func(n string) bool { return filepath.Ext(n) == ".svg" }}}, ""},
		{"dir holds a FIFO", []Output{{"--plots", "sp", Dir, nil, func(n string) bool { return n == "fifo.csv" || n == "to-fifo" || n == "pl" }}}, "--plots sp: holds files this output does not write (fifo.csv, pl, to-fifo)"},
		{"FIFO", []Output{{"-o", "sp/fifo.csv", Data, nil, nil}}, "-o sp/fifo.csv: is a named pipe (FIFO), not a regular file; refusing to replace it"},
		{"link to a FIFO", []Output{{"--commands-out", "sp/to-fifo", Text, nil, nil}}, "--commands-out sp/to-fifo (a symbolic link to sp/fifo.csv): is a named pipe (FIFO)"},
		{"character device", []Output{{"--commands-out", "/dev/zero", Text, nil, nil}}, "--commands-out /dev/zero: is a character device, not a regular file"},
		{"stdout, a table", []Output{{"-o", "-", Data, nil, nil}}, ""},
		{"stdout, text", []Output{{"--commands-out", "/dev/stdout", Text, nil, nil}}, ""},
		{"stdout with a sidecar", []Output{{"-o", "-", Data, []string{"-.setups.csv"}, nil}}, "-o -: this output writes -.setups.csv beside it, which a stream cannot hold"},
		{"stdout twice", []Output{{"-o", "-", Data, nil, nil}, {"--summary-out", "/dev/stdout", Data, nil, nil}}, "--summary-out /dev/stdout: is also the output of -o"},
	} {
		inputs := []string{"a/r.csv", "-"}
		if strings.HasPrefix(tc.name, "dir holds, link") {
			inputs = []string{"link.csv"}
		}
		err := Check(tc.outs, inputs)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("Check left files behind: %v", entries)
	}
}

func TestCheckUnwritableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		testenv.Skip(t, "running as root, directory permissions do not apply")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	err := Check([]Output{{"-o", filepath.Join(dir, "x.csv"), Data, nil, nil}}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot write in") {
		t.Errorf("error %v, want cannot write in", err)
	}
}

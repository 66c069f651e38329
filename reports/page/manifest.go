package page

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/benchtrim/benchtrim/analysis/trim"
	"github.com/benchtrim/benchtrim/internal/regular"
)

// manifestName is the file of a trim output folder (WriteDir) that lists
// every other file with its SHA-256, as sha256sum writes it ("HASH  NAME"
// per line, so `sha256sum -c manifest.sha256` checks the folder too). It
// is written last: a folder without it, or whose files differ from it, is
// not a complete set, and loadDir refuses it.
const manifestName = "manifest.sha256"

// maxManifestBytes bounds the manifest read: a trim folder's lists a few
// dozen files in about 100 bytes each.
const maxManifestBytes = 16 << 20

// writeManifest writes dir's manifest of the files names.
func writeManifest(dir string, names []string) error {
	sums := map[string]string{}
	for _, n := range names {
		sum, err := hashFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		sums[n] = sum
	}
	return os.WriteFile(filepath.Join(dir, manifestName), formatManifest(sums), 0o644)
}

func formatManifest(sums map[string]string) []byte {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return b.Bytes()
}

func hashFile(path string) (string, error) {
	f, err := regular.Open(path) // a FIFO or /dev/zero is refused, not read
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// maxManifestLine is the longest line readManifest takes: a hash, two
// spaces and a file name (at most 255 bytes on every file system).
const maxManifestLine = 2*sha256.Size + 2 + 255

// readManifest reads dir's manifest: file name → SHA-256 (hex). A missing
// manifest, a line that is not "HASH  NAME" (too long, a NUL or a path
// separator in the name, a name given twice) is an error naming the file
// and the line.
func readManifest(dir string) (map[string]string, error) {
	p := filepath.Join(dir, manifestName)
	data, err := regular.ReadFile(p, maxManifestBytes)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("%s: no %s: not a complete benchtrim trim --out-dir folder (written by an older build, or interrupted); run trim --out-dir %s again", dir, manifestName, dir)
	}
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" {
		return sums, nil
	}
	for i, l := range strings.Split(text, "\n") {
		line := i + 1
		if len(l) > maxManifestLine {
			return nil, fmt.Errorf("%s:%d: a line of %d bytes, longer than a SHA-256 manifest's (%d): not a manifest benchtrim wrote", p, line, len(l), maxManifestLine)
		}
		sum, name, ok := strings.Cut(l, "  ")
		if _, err := hex.DecodeString(sum); !ok || err != nil || len(sum) != 2*sha256.Size || name == "" || name != filepath.Base(name) || name == "." || name == ".." {
			return nil, fmt.Errorf("%s:%d: not a line of a SHA-256 manifest (HASH  NAME): %.80q", p, line, l)
		}
		if strings.ContainsAny(name, "\x00/\\") || !utf8.ValidString(name) {
			return nil, fmt.Errorf("%s:%d: file name %q holds a NUL, a path separator or invalid UTF-8: not a file of the folder", p, line, name)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", p, line, name)
		}
		sums[name] = sum
	}
	return sums, nil
}

// verify checks the trim output folder dir against its manifest: every
// file it lists exists with that SHA-256 and no data file loadDir reads is
// missing from it. skip names files not checked (report.html, which
// benchtrim report rebuilds). The error names the folder and the file.
func verify(dir string, skip ...string) error {
	sums, err := readManifest(dir)
	if err != nil {
		return err
	}
	if _, ok := sums[trim.Frames[0].File]; !ok {
		return fmt.Errorf("%s: %s does not list %s", dir, manifestName, trim.Frames[0].File)
	}
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if slices.Contains(skip, n) {
			continue
		}
		got, err := hashFile(filepath.Join(dir, n))
		if os.IsNotExist(err) {
			return fmt.Errorf("%s: %s is missing (%s lists it): the folder is not a complete set; run trim --out-dir %s again", dir, n, manifestName, dir)
		}
		if err != nil {
			return err
		}
		if got != sums[n] {
			return fmt.Errorf("%s: %s does not match %s (sha256 %.12s…, listed %.12s…): the file was changed or half-written; run trim --out-dir %s again", dir, n, manifestName, got, sums[n], dir)
		}
	}
	for _, f := range trim.Frames {
		if _, listed := sums[f.File]; !listed {
			if _, err := os.Stat(filepath.Join(dir, f.File)); err == nil {
				return fmt.Errorf("%s: %s is not in %s: the folder mixes files of two runs; run trim --out-dir %s again", dir, f.File, manifestName, dir)
			}
		}
	}
	return nil
}

// manifestWith returns dir's manifest with the SHA-256 of name set to
// that of data (benchtrim report rewriting report.html in the folder).
func manifestWith(dir, name string, data []byte) ([]byte, error) {
	sums, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	sums[name] = hex.EncodeToString(sum[:])
	return formatManifest(sums), nil
}

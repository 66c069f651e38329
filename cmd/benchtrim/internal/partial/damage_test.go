package partial

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// partials writes a partial file per command (seedReports, in name order)
// as --partial-out writes them and returns their bytes.
func partials(t testing.TB) [][]byte {
	var out [][]byte
	reports := seedReports()
	for _, cmd := range slices.Sorted(maps.Keys(reports)) {
		report := reports[cmd]
		path := filepath.Join(t.TempDir(), cmd+".partial")
		h := Header{Command: cmd, Benchtrim: "test", Shard: 1, Shards: 3, PlotMax: 2,
			Inputs: []Input{{Name: "in.json", Size: 12}}, ReadFlags: []ReadFlag{{Name: "format", Value: "jmh"}}}
		if err := Write(path, h, report); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// openAndDecode reads data as benchtrim merge reads a partial: Open, then
// Decode into the report type of its command.
func openAndDecode(t *testing.T, path string, data []byte) (*File, error) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	pf, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	return pf, pf.Decode(reportOf(pf.Header.Command))
}

// TestDamagedPartialsRefused flips bits of a partial file of each command
// (every bit of its first 512 bytes, every 7th after), one at a time, and cuts it short and extends it: every such
// file is refused by Open or Decode with an error naming it (issue 47,
// class 4: 10 of 60 partials with one flipped bit merged, exit 0, into a
// different plan).
func TestDamagedPartialsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.partial")
	for i, good := range partials(t) {
		// Every bit of the magic, the checksum line and the header, every
		// 7th bit of the report (one SHA-256 covers it all alike).
		next := func(bit int) int {
			if bit < 8*512 {
				return bit + 1
			}
			return bit + 7
		}
		if _, err := openAndDecode(t, path, good); err != nil {
			t.Fatalf("an undamaged partial: %v", err)
		}
		accepted := 0
		tried := 0
		for bit := i; bit < 8*len(good); bit = next(bit) {
			tried++
			data := bytes.Clone(good)
			data[bit/8] ^= 1 << (bit % 8)
			_, err := openAndDecode(t, path, data)
			if err == nil {
				accepted++
				continue
			}
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("bit %d: error %q does not name the file", bit, err)
			}
		}
		for _, data := range [][]byte{good[:len(good)-1], append(bytes.Clone(good), 0)} {
			if _, err := openAndDecode(t, path, data); err == nil {
				t.Errorf("a partial of %d bytes instead of %d was read", len(data), len(good))
			}
		}
		if accepted > 0 {
			t.Errorf("%d of %d single-bit flips of a %d-byte partial were read", accepted, tried, len(good))
		}
	}
}

// TestForgedHeader writes partials whose checksums are right and whose
// headers are not (Shards of 2⁴⁰ and 2⁶², a shard outside 0 … N−1, a
// negative plot-max): Open refuses each before merge sizes anything by
// them (issue 47, class 4: a fatal out-of-memory or a makeslice panic).
func TestForgedHeader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.partial")
	for _, h := range []Header{{Shard: 0, Shards: 1 << 40}, {Shard: 5, Shards: 1 << 62}, {Shard: 3, Shards: 3},
		{Shard: -1, Shards: 2}, {Shard: 0, Shards: 0}, {Shard: 0, Shards: MaxShards + 1}, {Shard: 0, Shards: 2, PlotMax: -1}} {
		h.Command = "steady"
		if err := Write(path, h, reportOf("steady")); err != nil {
			t.Fatal(err)
		}
		pf, err := Open(path)
		if err == nil {
			pf.Close()
			t.Errorf("shard %d/%d, plot-max %d: Open accepted the header", h.Shard, h.Shards, h.PlotMax)
		} else if !strings.Contains(err.Error(), path+": header: ") {
			t.Errorf("shard %d/%d: error %v", h.Shard, h.Shards, err)
		}
	}
}

// withSum returns a partial file of payload with the right checksum line.
func withSum(payload []byte) []byte {
	sum := sha256.Sum256(payload)
	return append([]byte(fileMagic+sumLine(sum[:], int64(len(payload)))), payload...)
}

// TestGobLengthBounded gives Open a payload with the right checksum whose
// first gob message claims 2³⁰ − 1 bytes: it is refused before gob
// allocates them.
func TestGobLengthBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.partial")
	var b bytes.Buffer
	gob.NewEncoder(&b).Encode(Header{Command: "steady", Format: formatVersion, Shards: 1})
	payload := append([]byte{0xfc, 0x3f, 0xff, 0xff, 0xff}, b.Bytes()...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := openAndDecode(t, path, withSum(payload))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "a gob message of 1073741823 bytes where") {
		t.Errorf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("Open allocated %d bytes", grew)
	}
}

// FuzzPayload gives Open and Decode arbitrary payloads with the right
// checksum, so that the fuzzer reaches the gob decoding of the header and
// the report (FuzzOpen's inputs nearly all fail the checksum): no panic,
// errors name the file, an accepted header is in range, and no message
// is allocated beyond the file's size.
//
//	go test -run '^$' -fuzz '^FuzzPayload$' -fuzztime 60s -fuzzminimizetime 100x ./internal/partial/
func FuzzPayload(f *testing.F) {
	for _, b := range partials(f) {
		f.Add(b[len(fileMagic)+sumLineLen:])
	}
	f.Add([]byte{0xfc, 0x3f, 0xff, 0xff, 0xff})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, payload []byte) {
		path := filepath.Join(dir, "fuzz.partial")
		pf, err := openAndDecode(t, path, withSum(payload))
		if err != nil && !strings.HasPrefix(err.Error(), path+":") {
			t.Fatalf("error %q does not name the file", err)
		}
		if pf != nil {
			if h := pf.Header; h.Shards < 1 || h.Shards > MaxShards || h.Shard < 0 || h.Shard >= h.Shards || h.PlotMax < 0 {
				t.Fatalf("header accepted: shard %d/%d, plot-max %d", h.Shard, h.Shards, h.PlotMax)
			}
		}
	})
}

package main

// The result-file formats benchtrim reads register themselves with ingest.
import _ "github.com/benchtrim/benchtrim/ingest/formats"

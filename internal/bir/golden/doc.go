// Package golden holds the front end's whole-pipeline tests: golden files of
// the parse tree, the canonical layout and the typed program of every example
// model, the formatter's idempotence and meaning preservation, and the fuzz
// target for the parser, checker and formatter. It has no code of its own.
package golden

package main

import (
	"fmt"
	"io"
	"strings"
)

// thesisTables are the published numbers of Kudra's Tables 5.1-5.5 (rows:
// models; columns: AMCS, RandDFS, AMCSNoTP, MinOnly, MaxOverlap, AddAll,
// MinSet), copied from the thesis, to print beside birch's.
var thesisTables = []struct {
	num  string
	rows []thesisRow
}{
	{"5.1", []thesisRow{
		{"Branches", "0.00 0.22 0.00 0.00 1.00 0.00 0.33"},
		{"SumToNBig", "0.00 0.00 0.00 1.00 0.80 0.00 0.00"},
		{"CustWorkers", "0.00 0.00 0.00 1.00 0.36 0.00 0.00"},
		{"MultiplyToN", "0.00 0.11 0.00 1.00 0.44 0.00 0.00"},
		{"Hyman", "0.00 0.19 0.00 1.00 0.00 0.00 0.00"},
		{"DiningPhil", "0.00 1.00 0.00 0.25 0.00 0.00 0.00"},
		{"Barbershop", "0.00 0.00 0.00 1.00 0.15 0.00 0.00"},
	}},
	{"5.2", []thesisRow{
		{"Branches", "0.02 0.30 0.05 0.32 0.35 0.02 0.15"},
		{"SumToNBig", "0.20 0.00 0.20 0.45 0.30 0.20 0.20"},
		{"CustWorkers", "0.15 0.32 0.00 0.48 0.22 0.15 0.15"},
		{"MultiplyToN", "0.18 0.05 0.20 0.70 0.35 0.18 0.15"},
		{"Hyman", "0.00 0.32 0.00 0.48 0.02 0.00 0.15"},
		{"DiningPhil", "0.20 1.00 0.02 1.00 0.72 0.20 0.72"},
		{"Barbershop", "0.10 0.00 0.20 0.58 0.40 0.10 0.38"},
	}},
	{"5.3", []thesisRow{
		{"Branches", "0.00 1.00 0.09 0.09 0.36 0.00 0.00"},
		{"SumToNBig", "0.47 0.00 0.47 1.00 0.71 0.47 0.47"},
		{"CustWorkers", "0.00 0.14 0.00 1.00 0.36 0.21 0.21"},
		{"MultiplyToN", "0.37 0.00 0.42 1.00 0.68 0.37 0.32"},
		{"Hyman", "0.00 0.08 0.00 1.00 0.08 0.00 0.25"},
		{"DiningPhil", "0.30 0.74 0.04 1.00 0.78 0.30 0.78"},
		{"Barbershop", "0.17 0.00 0.42 1.00 0.71 0.17 0.67"},
	}},
	{"5.4", []thesisRow{
		{"Branches", "0.07 0.29 0.14 0.64 1.00 0.07 0.43"},
		{"SumToNBig", "0.44 0.00 0.44 1.00 0.67 0.44 0.44"},
		{"CustWorkers", "0.32 0.00 0.00 1.00 0.47 0.32 0.32"},
		{"MultiplyToN", "0.25 0.00 0.29 1.00 0.50 0.25 0.21"},
		{"Hyman", "0.00 0.00 0.00 1.00 0.06 0.00 0.22"},
		{"DiningPhil", "0.20 0.00 0.02 1.00 0.72 0.20 0.72"},
		{"Barbershop", "0.17 0.00 0.35 1.00 0.70 0.17 0.65"},
	}},
	{"5.5", []thesisRow{
		{"Branches", "0.08 0.00 0.08 0.08 1.00 0.08 0.31"},
		{"SumToNBig", "0.57 0.00 0.57 1.00 0.86 0.57 0.57"},
		{"CustWorkers", "0.38 0.00 0.00 1.00 0.56 0.38 0.38"},
		{"MultiplyToN", "0.37 0.00 0.42 1.00 0.74 0.37 0.32"},
		{"Hyman", "0.00 0.00 0.00 1.00 0.06 0.00 0.24"},
		{"DiningPhil", "0.20 0.00 0.02 1.00 0.72 0.20 0.72"},
		{"Barbershop", "0.00 0.00 0.00 1.00 0.00 0.00 0.65"},
	}},
}

type thesisRow struct{ model, values string }

// thesisTable21 is the thesis's Table 2.1 (AMCS error-free search).
var thesisTable21 = []thesisRow{
	{"Barbershop", "4621 states (no gain)"},
	{"Branches", "NT"},
	{"CustWorkers", "5014 states (no gain)"},
	{"DiningPhil", "2847 states (no gain)"},
	{"Fibonacci", "NT"},
	{"Factorial", "NT"},
	{"Handshake", "79/298 bissimulation"},
	{"Hyman", "NT"},
	{"Stack", "NT"},
	{"SumToN", "NT"},
}

// writeThesisTables writes the thesis's tables in the layout of birch's.
func writeThesisTables(w io.Writer) {
	fmt.Fprintf(w, "# The thesis's tables (Kudra 2007: Bogor, Simplify, Pentium 4, 5 minutes per model, 12 runs)\n\n")
	cols := []string{"AMCS", "RandDFS", "AMCSNoTP", "MinOnly", "MaxOverlap", "AddAll", "MinSet"}
	for _, t := range thesisTables {
		var rows []string
		var cells [][]string
		for _, r := range t.rows {
			rows = append(rows, r.model)
			cells = append(cells, strings.Fields(r.values))
		}
		writeTable(w, t.num, cols, rows, func(r, c int) string { return cells[r][c] })
	}
	var rows []string
	for _, r := range thesisTable21 {
		rows = append(rows, r.model)
	}
	writeTable(w, "2.1", []string{"States Explored"}, rows, func(r, _ int) string { return thesisTable21[r].values })
}

// WriteBeside writes birch's tables with the thesis's number beside each
// cell, "birch (thesis)", "-" for a model or technique the thesis's table
// does not have.
func (res *Result) WriteBeside(w io.Writer) {
	fmt.Fprintf(w, "# birch (thesis)\n\n")
	thesisCols := map[string]int{"AMCS": 0, "RandDFS": 1, "AMCSNoTP": 2, "MinOnly": 3, "MaxOverlap": 4, "AddAll": 5, "MinSet": 6}
	var cols, rows []string
	for _, t := range res.Cfg.Techniques {
		cols = append(cols, t.Name)
	}
	for _, mr := range res.Models {
		rows = append(rows, mr.Name)
	}
	for _, t := range thesisTables {
		cells := res.cells(t.num)
		thesis := map[string][]string{}
		for _, r := range t.rows {
			thesis[r.model] = strings.Fields(r.values)
		}
		writeTable(w, t.num, cols, rows, func(r, c int) string {
			th := "-"
			if vals, ok := thesis[rows[r]]; ok {
				th = vals[thesisCols[cols[c]]]
			}
			return cells[r][c] + " (" + th + ")"
		})
	}
	if res.Cfg.NoTable21 {
		return
	}
	thesis := map[string]string{}
	for _, r := range thesisTable21 {
		thesis[r.model] = r.values
	}
	writeTable(w, "2.1", []string{"birch", "thesis"}, rows, func(r, c int) string {
		if c == 0 {
			return res.Models[r].Table21
		}
		if v, ok := thesis[rows[r]]; ok {
			return v
		}
		return "-"
	})
}

// Package c2bp is the predicate abstraction of SLAM's C2bp for BIR: a pass
// (BIR -> BIR) that replaces the data the predicates of a predicate file
// describe by one boolean variable per predicate, and keeps the rest of the
// model (threads, locations, locks, booleans, enums, small ranges) as it
// is. The abstract model over-approximates the concrete one, so a property
// that holds of it holds of the concrete model.
//
// Package predicate supplies the pieces: the predicate file, the weakest
// preconditions and the cube search (F and G). This package composes them
// into the abstract model; internal/backend/bp writes the model of a
// one-thread program as a SLAM boolean program, and internal/verify checks
// it (birch check --predicates).
package c2bp

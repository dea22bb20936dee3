// Package svcomp reads SV-COMP verification tasks and answers them as the
// competition's verifiers do (docs/svcomp.md).
//
// A task file (.yml, format_version 1.0 or 2.x) names the program's input
// files, its properties (property_file, expected_verdict) and its options
// (language, data_model). ReadTask reads it with a reader of the small part
// of YAML task files use (yaml.go; birch takes no YAML dependency), and
// reads each property file: unreach-call (`call(reach_error())`, the error
// function that of the file), unreach-label (`label(ERROR)`), no-overflow;
// any other property is Unsupported and answered unknown. A property file
// that is not on disk is known by its base name.
//
// Decide maps the result of checking the lowered program (a verify.Result)
// to the answer, never claiming more than the check proved:
//
//	true     the check passed: a complete search or a proof
//	false    a confirmed violation at one of the lowering's property
//	         positions (cfront.Output.Property) whose C text is the
//	         error function's call or the label; for no-overflow, the
//	         lowering's signed-overflow check
//	unknown  anything else: an inconclusive check, a runtime error that
//	         is not the property (undefined behaviour, named), a
//	         construct the lowering does not handle, another property
//
// The expected verdict is only compared with the answer (Agreement).
//
// WriteWitness writes a violation witness in the GraphML format 1.0 of
// sosy-lab's sv-witnesses; Waypoints derives its edges from a violation's
// trail: the values the trail's inputs return, then the violation's line.
//
// Stage: the SV-COMP layer of the command line, over verify and the C
// front end.
package svcomp

// Package token defines the lexical tokens of BIR and their precedence.
//
// It is the first stage of the BIR front end (token -> scanner -> parser ->
// ast -> types -> format), mirroring go/token. Keywords are reserved words of
// BIR.md §8; the temporal operators X, U, R and W are ordinary identifiers that
// the parser reads as operators only inside `ltl` formulas.
package token

import "strconv"

// Kind is the kind of a lexical token.
type Kind int

// The token kinds.
const (
	ILLEGAL Kind = iota
	EOF
	COMMENT

	literalBeg
	IDENT  // main
	INT    // 123
	STRING // "abc"
	literalEnd

	operatorBeg
	ADD // +
	SUB // -
	MUL // *
	QUO // /
	REM // %

	LAND // &&
	LOR  // ||
	NOT  // !

	EQL // ==
	NEQ // !=
	LSS // <
	LEQ // <=
	GTR // >
	GEQ // >=

	AND   // &
	OR    // |
	XOR   // ^
	SHL   // <<
	SHR   // >>
	TILDE // ~

	ASSIGN   // :=
	DEFINE   // =  (definitions)
	ARROW    // ->
	IFF      // <->
	ALWAYS   // []
	EVENTUAL // <>
	AT       // @

	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	COMMA     // ,
	PERIOD    // .
	ELLIPSIS  // ..
	SEMICOLON // ;
	COLON     // :

	// Temporal operators; spelled as identifiers, produced only by the
	// parser inside ltl formulas.
	NEXT      // X
	UNTIL     // U
	RELEASE   // R
	WEAKUNTIL // W
	operatorEnd

	keywordBeg
	SYSTEM
	PROCESS
	END
	CONST
	EXTENDS
	COLLECTION
	OF
	RECORD
	ENUM
	RANGE
	INT_TYPE // int
	BOOLEAN
	TID
	LOCK
	WAIT
	REENTRANT
	REF
	ARRAY
	MAIN
	THREAD
	FUNCTION
	LOC
	LIVE
	WHEN
	DO
	INVISIBLE
	GOTO
	RETURN
	NEW
	INTERNCHOOSE
	EXTERNCHOOSE
	FORALL
	REACHABLE
	UNLOCK
	UNWAIT
	NOTIFY
	NOTIFYALL
	START
	EXIT
	PRINTLN
	ASSERT
	ASSUME
	CALL
	LOCKAVAILABLE
	HASLOCK
	WASNOTIFIED
	THREADTERMINATED
	INSTANCEOF
	LENGTH
	TRUE
	FALSE
	NULL
	PREDICATES
	PROPERTIES
	INVARIANT
	LTL
	keywordEnd
)

var names = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "EOF",
	COMMENT: "COMMENT",
	IDENT:   "IDENT",
	INT:     "INT",
	STRING:  "STRING",

	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%",
	LAND: "&&", LOR: "||", NOT: "!",
	EQL: "==", NEQ: "!=", LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=",
	AND: "&", OR: "|", XOR: "^", SHL: "<<", SHR: ">>", TILDE: "~",
	ASSIGN: ":=", DEFINE: "=", ARROW: "->", IFF: "<->", ALWAYS: "[]", EVENTUAL: "<>", AT: "@",
	LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	COMMA: ",", PERIOD: ".", ELLIPSIS: "..", SEMICOLON: ";", COLON: ":",
	NEXT: "X", UNTIL: "U", RELEASE: "R", WEAKUNTIL: "W",

	SYSTEM: "system", PROCESS: "process", END: "end", CONST: "const", EXTENDS: "extends",
	COLLECTION: "collection", OF: "of", RECORD: "record", ENUM: "enum", RANGE: "range",
	INT_TYPE: "int", BOOLEAN: "boolean", TID: "tid", LOCK: "lock", WAIT: "wait",
	REENTRANT: "reentrant", REF: "ref", ARRAY: "array", MAIN: "main", THREAD: "thread",
	FUNCTION: "function", LOC: "loc", LIVE: "live", WHEN: "when", DO: "do",
	INVISIBLE: "invisible", GOTO: "goto", RETURN: "return", NEW: "new",
	INTERNCHOOSE: "internChoose", EXTERNCHOOSE: "externChoose", FORALL: "forall",
	REACHABLE: "reachable", UNLOCK: "unlock", UNWAIT: "unwait", NOTIFY: "notify",
	NOTIFYALL: "notifyAll", START: "start", EXIT: "exit", PRINTLN: "println",
	ASSERT: "assert", ASSUME: "assume", CALL: "call", LOCKAVAILABLE: "lockAvailable",
	HASLOCK: "hasLock", WASNOTIFIED: "wasNotified", THREADTERMINATED: "threadTerminated",
	INSTANCEOF: "instanceof", LENGTH: "length", TRUE: "true", FALSE: "false", NULL: "null",
	PREDICATES: "predicates", PROPERTIES: "properties", INVARIANT: "invariant", LTL: "ltl",
}

// String returns the token's spelling (for operators and keywords) or its
// class name (IDENT, INT, ...).
func (k Kind) String() string {
	if 0 <= k && int(k) < len(names) && names[k] != "" {
		return names[k]
	}
	return "token(" + strconv.Itoa(int(k)) + ")"
}

// IsLiteral reports whether k is an identifier or a basic literal.
func (k Kind) IsLiteral() bool { return literalBeg < k && k < literalEnd }

// IsOperator reports whether k is an operator or delimiter.
func (k Kind) IsOperator() bool { return operatorBeg < k && k < operatorEnd }

// IsKeyword reports whether k is a reserved word.
func (k Kind) IsKeyword() bool { return keywordBeg < k && k < keywordEnd }

var keywords map[string]Kind

func init() {
	keywords = make(map[string]Kind, keywordEnd-keywordBeg)
	for k := keywordBeg + 1; k < keywordEnd; k++ {
		keywords[names[k]] = k
	}
}

// Lookup maps an identifier to its keyword kind, or IDENT.
func Lookup(ident string) Kind {
	if k, ok := keywords[ident]; ok {
		return k
	}
	return IDENT
}

// Keywords returns every reserved word, in declaration order.
func Keywords() []string {
	var out []string
	for k := keywordBeg + 1; k < keywordEnd; k++ {
		out = append(out, names[k])
	}
	return out
}

// Lowest precedence and the unary precedence used by the expression parser.
const (
	LowestPrec = 0
	UnaryPrec  = 15
)

// Precedence returns the binary-operator precedence of k in BIR expressions
// (higher binds tighter), extended with LTL's implication, equivalence and
// binary temporal operators. Non-operators return LowestPrec.
//
// Tightest first, the bitwise operators placed as in C: * / %, + -, << >>,
// < <= > >=, == !=, &, ^, |, (U R W), &&, ||, ->, <->.
func (k Kind) Precedence() int {
	switch k {
	case IFF:
		return 1
	case ARROW:
		return 2
	case LOR:
		return 3
	case LAND:
		return 4
	case UNTIL, RELEASE, WEAKUNTIL:
		return 5
	case OR:
		return 6
	case XOR:
		return 7
	case AND:
		return 8
	case EQL, NEQ:
		return 9
	case LSS, LEQ, GTR, GEQ:
		return 10
	case SHL, SHR:
		return 11
	case ADD, SUB:
		return 12
	case MUL, QUO, REM:
		return 13
	}
	return LowestPrec
}

; Used to be unknown: a variant of refine-line.smt2 (coefficient 3 for
; M[1].a, constants changed), found by mutating it; z3 answers unsat. Its
; integer problem is, like the original's, a line of rational solutions
; without integer points, which only the equation test of lia.CheckInt
; refutes.
(set-info :status unsat)
(set-logic QF_LIA)
(declare-const |y#14| Int)
(declare-const |y#15| Int)
(declare-const |M[1].a#12| Int)
(declare-const |N[2].b#6| Int)
(declare-const |x#13| Int)
(declare-const |f#8| Bool)
(assert (and (not (<= |y#14| 0)) (not (<= |y#14| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 0))) (not (<= |y#14| (+ (* 3 |N[2].b#6|) 1))) (< (* 3 |M[1].a#12|) |y#14|) (<= (* 3 |M[1].a#12|) |y#14|) (>= |M[1].a#12| 0)))
(assert (= |y#15| (- |y#14| 1)))
(assert (=> true (and (<= (- 9223372036854775808) (* |N[2].b#6| 1)) (<= (* |N[2].b#6| 2) 9223372036854775807))))
(assert (=> true (and (<= (- 9223372036854775808) (- |x#13| |y#14|)) (<= (- |x#13| |y#14|) 9223372036854775807))))
(assert (>= (* |N[2].b#6| 0) (- |x#13| |y#14|)))
(assert (=> true (and (<= (- 9223372036854775808) (- |y#14| 1)) (<= (- |y#14| 1) 9223372036854775807))))
(assert (not (and (<= |y#15| 0) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 3 |N[2].b#6|) 1))) (not (< (* 3 |M[1].a#12|) |y#15|)) (<= (* 3 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 1)) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 3 |N[2].b#6|) 1))) (not (< (* 3 |M[1].a#12|) |y#15|)) (<= (* 3 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 0)) (not (<= |y#15| (- 2))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 3 |N[2].b#6|) 1))) (< (* 3 |M[1].a#12|) |y#15|) (<= (* 3 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 3)) (not (<= |y#15| (- 2))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (<= |y#15| (+ (* 3 |N[2].b#6|) 1)) (< (* 3 |M[1].a#12|) |y#15|) (<= (* 3 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(check-sat)

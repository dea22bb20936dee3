; Used to be unknown: a query of the refinement loop (abstraction/refine)
; whose rational solutions, in the branch the SAT search takes, form an
; unbounded line without integer points (2a = y#15 = 2b + 1, i.e.
; a = b + 1/2 for every b): branch and bound and the Gomory cuts move the
; solution one step along it, the box search never proves anything, and
; the 64-bit range facts bound nothing that matters. lia.CheckInt now
; propagates the bounds through the rows, finds y#15 - 2b fixed, and
; refutes the equations over the integers (eqTest).
(set-info :status unsat)
(set-logic QF_LIA)
(declare-const |y#14| Int)
(declare-const |y#15| Int)
(declare-const |M[1].a#12| Int)
(declare-const |N[2].b#6| Int)
(declare-const |x#13| Int)
(declare-const |f#8| Bool)
(assert (and (not (<= |y#14| 0)) (not (<= |y#14| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#14| (+ (* 2 |N[2].b#6|) 1))) (< (* 2 |M[1].a#12|) |y#14|) (<= (* 2 |M[1].a#12|) |y#14|) (>= |M[1].a#12| 0)))
(assert (= |y#15| (- |y#14| 1)))
(assert (=> true (and (<= (- 9223372036854775808) (* |N[2].b#6| 2)) (<= (* |N[2].b#6| 2) 9223372036854775807))))
(assert (=> true (and (<= (- 9223372036854775808) (- |x#13| |y#14|)) (<= (- |x#13| |y#14|) 9223372036854775807))))
(assert (>= (* |N[2].b#6| 2) (- |x#13| |y#14|)))
(assert (=> true (and (<= (- 9223372036854775808) (- |y#14| 1)) (<= (- |y#14| 1) 9223372036854775807))))
(assert (not (and (<= |y#15| 0) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 2 |N[2].b#6|) 1))) (not (< (* 2 |M[1].a#12|) |y#15|)) (<= (* 2 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 0)) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 2 |N[2].b#6|) 1))) (not (< (* 2 |M[1].a#12|) |y#15|)) (<= (* 2 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 0)) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (not (<= |y#15| (+ (* 2 |N[2].b#6|) 1))) (< (* 2 |M[1].a#12|) |y#15|) (<= (* 2 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(assert (not (and (not (<= |y#15| 0)) (not (<= |y#15| (- 1))) (not |f#8|) (not (<= |M[1].a#12| (- 1))) (<= |y#15| (+ (* 2 |N[2].b#6|) 1)) (< (* 2 |M[1].a#12|) |y#15|) (<= (* 2 |M[1].a#12|) |y#15|) (>= |M[1].a#12| 0))))
(check-sat)

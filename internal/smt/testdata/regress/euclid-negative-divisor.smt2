; Euclidean div and mod with a negative divisor: x = (-3)·1 + 2 = -1.
(set-info :status sat)
(set-logic QF_LIA)
(declare-fun x () Int)
(assert (= (mod x (- 3)) 2))
(assert (= (div x (- 3)) 1))
(check-sat)

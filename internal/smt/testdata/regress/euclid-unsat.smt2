; mod is never negative, whatever the sign of the divisor.
(set-info :status unsat)
(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (or (< (mod x (- 5)) 0) (> (mod y 5) 4)))
(check-sat)

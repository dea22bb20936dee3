(declare-fun x () Int)
(assert (> x 0)))

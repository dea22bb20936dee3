(set-logic QF_LIA)
(declare-fun x () Int)
(assert
  (forall ((y Int)) (> x y)))

; Used to be unknown (1 s limit): differential test, fragment alia, seed 1
; (generator seed 1004), query 69, on the test's long-lived solver, where
; branch and bound left the integer problems of candidate after candidate
; open (each blocked assignment was followed by its neighbours, to which the
; SAT search's saved phases led it back). Now a blocked assignment restarts
; the search from fresh phases. A fresh solver, as here, decided it before
; too; the differential test covers the long-lived case.
(set-info :status sat)
(set-logic QF_ALIA)
(declare-fun x0 () Int)
(declare-fun x1 () Int)
(declare-fun x2 () Int)
(declare-fun x3 () Int)
(declare-fun A () (Array Int Int))
(declare-fun B () (Array Int Int))
(assert (or (not (= (store (store B x2 (- 2)) x1 x1) (store A x3 (- 3)))) (not (= (select (store B 1 x1) 1) (- (* 3 x2) (* (- 3) x1)))) (>= (select B (ite (<= x0 (mod x2 2)) x3 x1)) (select B (ite (<= x2 (- (* (- 2) x2) x1)) x0 x0)))))
(assert (or (not (= (- 1) (- (* (- 3) (select (store B 2 x2) x2)) (- (select B x2))))) (not (>= (select B (ite (<= x0 (mod x2 2)) x3 x1)) (select B (ite (<= x2 (- (* (- 2) x2) x1)) x0 x0))))))
(assert (= (select (store B 1 x1) 1) (- (* 3 x2) (* (- 3) x1))))
(assert (let ((?t1 (distinct (- 10) x2))) (or (>= (select B (ite (<= x0 (mod x2 2)) x3 x1)) (select B (ite (<= x2 (- (* (- 2) x2) x1)) x0 x0))) ?t1 (not ?t1))))
(assert (let ((?t1 (not (distinct (- 10) x2)))) (or (not (= (store (store B x2 (- 2)) x1 x1) (store A x3 (- 3)))) ?t1 ?t1)))
(assert (or (not (>= (select B (ite (<= x0 (mod x2 2)) x3 x1)) (select B (ite (<= x2 (- (* (- 2) x2) x1)) x0 x0)))) (not (distinct (ite (<= (- 6) (select B x0)) (+ (* (- 3) (- 9)) (* (- 3) x1)) (select B x1)) (mod (select (store A x1 x0) (- 8)) 2))) (not (= (select B 0) x2))))
(assert (or (not (distinct (ite (<= (- 6) (select B x0)) (+ (* (- 3) (- 9)) (* (- 3) x1)) (select B x1)) (mod (select (store A x1 x0) (- 8)) 2))) (not (=> (or (= (select (store (store B x3 x2) x1 x1) x3) (mod x2 (- 2))) (= A (store B x1 x0))) (>= x3 (+ x1 (* 2 (- (* 2 x2) (- 8) (* 3 10)))))))))
(assert (let ((?t1 (= (store (store B x2 (- 2)) x1 x1) (store A x3 (- 3))))) (or ?t1 (not (and (distinct (+ (- x1) (* (- 3) (mod x0 5)) (* 3 x2)) (+ (* (- 3) x0) (* 2 10))) (and (= (div x1 3) x1) (<= (+ (- (div (- 5) 2)) (* (- 2) (- (* (- 2) x2) (* 3 (- 9)))) (* 3 (- 1))) 7)) (> (- (- (mod x3 4)) (* (- 2) (select (store A 3 x1) x1))) (ite (<= x2 (- 5 x3 (* 2 x1))) x0 0)))) ?t1)))
(assert (not (> (select (store A x3 x0) x1) (select A (- (* (- 3) (- 5)) (* 3 x2))))))
(assert (not (distinct (ite (<= (- 6) (select B x0)) (+ (* (- 3) (- 9)) (* (- 3) x1)) (select B x1)) (mod (select (store A x1 x0) (- 8)) 2))))
(check-sat)

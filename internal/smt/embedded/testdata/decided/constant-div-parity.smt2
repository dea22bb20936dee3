; Used to be unknown: div of constants made fresh integers, which hid the
; parity of 1 = 2·(…) from the GCD tests; branch and bound alone cannot
; refute it. Differential test, fragment uflia, seed 2, query 127.
(set-info :status unsat)
(declare-fun x0 () Int)
(declare-fun x1 () Int)
(declare-fun x2 () Int)
(declare-fun x3 () Int)
(declare-fun h (Int) Int)
(assert (let ((?t1 (- x1))) (let ((?t2 (not (= (div (div 5 (- 1)) (- 5)) (+ (* 2 (+ ?t1 (* 3 x0))) (* 2 (mod x2 (- 5)))))))) (or ?t2 ?t2 (not (< (+ (* 3 (+ ?t1 (* 2 9) (- 2))) (- (* (- 3) x3) (* 2 x0))) (h (+ x1 (* 3 1)))))))))
(assert (or (not (= (h (- (- x2) (* 2 1) (* (- 2) x3))) (div x1 2))) (< (+ (* 3 (+ (- x1) (* 2 9) (- 2))) (- (* (- 3) x3) (* 2 x0))) (h (+ x1 (* 3 1))))))
(assert (not (= (h (- (- x2) (* 2 1) (* (- 2) x3))) (div x1 2))))
(assert (= (div (div 5 (- 1)) (- 5)) (+ (* 2 (+ (- x1) (* 3 x0))) (* 2 (mod x2 (- 5))))))
(assert (let ((?t1 (= (div (div 5 (- 1)) (- 5)) (+ (* 2 (+ (- x1) (* 3 x0))) (* 2 (mod x2 (- 5))))))) (let ((?t2 (not ?t1))) (or ?t2 ?t2 ?t1))))
(check-sat)

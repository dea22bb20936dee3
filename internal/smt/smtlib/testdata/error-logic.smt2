(set-info :status sat)
(set-logic QF_NRA)

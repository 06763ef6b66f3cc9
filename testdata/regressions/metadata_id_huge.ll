; Regression: a metadata id of 2^26 made the reader allocate a slot for
; every smaller id (2.6 GB for this 3-line file). Found while adding limits.
!67108864 = !{}
!4294967295 = !{!67108864}

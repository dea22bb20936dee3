package model

// appendState encodes the slot vector s: each slot as a zig-zag varint.
func appendState(dst []byte, s []int64) []byte {
	for _, v := range s {
		u := uint64(v<<1) ^ uint64(v>>63)
		for u >= 0x80 {
			dst = append(dst, byte(u)|0x80)
			u >>= 7
		}
		dst = append(dst, byte(u))
	}
	return dst
}

// decodeState decodes an encoded state into dst. It returns false if src is
// not a well-formed state of m.
func (m *Model) decodeState(dst []int64, src []byte) ([]int64, bool) {
	dst = dst[:0]
	i := 0
	next := func() (int64, bool) {
		var u uint64
		var shift uint
		for {
			if i >= len(src) || shift > 63 {
				return 0, false
			}
			b := src[i]
			i++
			u |= uint64(b&0x7f) << shift
			if b < 0x80 {
				break
			}
			shift += 7
		}
		return int64(u>>1) ^ -int64(u&1), true
	}
	take := func(n int) bool {
		for ; n > 0; n-- {
			v, ok := next()
			if !ok {
				return false
			}
			dst = append(dst, v)
		}
		return true
	}
	if !take(m.poolOff + 1) {
		return dst, false
	}
	n := dst[m.poolOff]
	if n < 0 || n > int64(m.opts.MaxThreads) {
		return dst, false
	}
	for t := int64(0); t < n; t++ {
		if !take(thHeader) {
			return dst, false
		}
		d := dst[len(dst)-1]
		if d < 1 || d > int64(m.opts.MaxCallDepth) {
			return dst, false
		}
		for ; d > 0; d-- {
			if !take(1) {
				return dst, false
			}
			p := dst[len(dst)-1]
			if p < 0 || p >= int64(len(m.allProcs)) {
				return dst, false
			}
			if !take(frHeader - 1 + m.allProcs[p].varSize) {
				return dst, false
			}
		}
	}
	return dst, i == len(src)
}

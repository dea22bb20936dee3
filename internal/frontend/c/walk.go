package c

import (
	"reflect"

	"modernc.org/cc/v4"
)

var nodeType = reflect.TypeOf((*cc.Node)(nil)).Elem()

// walk visits n and every node below it, in source order.
func walk(n cc.Node, f func(cc.Node)) {
	walkUntil(n, func(n cc.Node) bool { f(n); return true })
}

// walkUntil visits n and the nodes below it; f returning false skips the
// node's children.
func walkUntil(n cc.Node, f func(cc.Node) bool) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return
	}
	if !f(n) {
		return
	}
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if fv.Kind() != reflect.Interface && fv.Kind() != reflect.Pointer {
			continue
		}
		if fv.IsNil() || !fv.Type().Implements(nodeType) && !(fv.Kind() == reflect.Interface && fv.Elem().Type().Implements(nodeType)) {
			continue
		}
		if c, ok := fv.Interface().(cc.Node); ok {
			walkUntil(c, f)
		}
	}
}

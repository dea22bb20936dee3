#!/usr/bin/env python3
"""A small independent explicit-state interpreter of BIR (BIR.md §6) to check example verdicts.

Usage: bir.py FILE [--no-deadlock] [--no-reset-initial] [--params-always-live]
"""
import re, sys
from collections import deque

INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1

# the fixed-width integer types (docs/bir.md 5.12): name -> (bits, signed)
FIXED = {'int8': (8, True), 'int16': (16, True), 'int32': (32, True), 'int64': (64, True),
         'uint8': (8, False), 'uint16': (16, False), 'uint32': (32, False), 'uint64': (64, False)}

def wrap(bits, signed, v):
    """v reduced modulo 2^bits into a fixed-width type; a uint64 from 2^63 on is a limit"""
    u = v % (1 << bits)
    if signed:
        return u - (1 << bits) if u >= 1 << (bits - 1) else u
    if bits == 64 and u >= 1 << 63:
        raise Limit('value not representable in uint64')
    return u

# ---------------------------------------------------------------- lexer
TOK = re.compile(r'''
 (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
|(?P<str>"(?:\\.|[^"\\])*")
|(?P<int>\d+)
|(?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
|(?P<op><->|->|:=|\.\.|==|!=|<=|>=|<<|>>|&&|\|\||\[\]|<>|[-+*/%<>!=(){}\[\];:,.@&|^~])
''', re.S | re.X)

def lex(src):
    out = []
    pos = 0
    while pos < len(src):
        m = TOK.match(src, pos)
        if not m:
            raise SyntaxError('bad char at %d: %r' % (pos, src[pos:pos+20]))
        pos = m.end()
        k = m.lastgroup
        if k == 'ws':
            continue
        out.append((k, m.group(k)))
    out.append(('eof', ''))
    return out

class BIRError(Exception):
    def __init__(self, kind, msg=''):
        self.kind = kind; self.msg = msg

class Limit(Exception):
    def __init__(self, msg):
        self.msg = msg

# ---------------------------------------------------------------- parser
class P:
    def __init__(self, toks):
        self.t = toks; self.i = 0
    def peek(self, k=0): return self.t[self.i + k][1]
    def kind(self, k=0): return self.t[self.i + k][0]
    def next(self):
        v = self.t[self.i][1]; self.i += 1; return v
    def expect(self, s):
        v = self.next()
        if v != s:
            raise SyntaxError('expected %r found %r near token %d: %s' % (s, v, self.i, ' '.join(x[1] for x in self.t[self.i-5:self.i+5])))
        return v
    def accept(self, s):
        if self.peek() == s:
            self.i += 1; return True
        return False

    # expressions: precedence, tightest first: unary, * / %, + -, << >>, < <= > >=, == !=, &, ^, |,
    # U R W, &&, ||, ->, <->
    BIN = [['<->'], ['->'], ['||'], ['&&'], ['U', 'R', 'W'], ['|'], ['^'], ['&'], ['==', '!='],
           ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']]
    def expr(self, lvl=0):
        if lvl == len(self.BIN):
            return self.unary()
        x = self.expr(lvl + 1)
        while self.peek() in self.BIN[lvl] and not (self.peek() in ('U', 'R', 'W') and not self.ltl):
            op = self.next()
            y = self.expr(lvl + 1)
            x = ('bin', op, x, y)
        return x
    ltl = False
    def unary(self):
        p = self.peek()
        if p in ('!', '-', '+', '~', '[]', '<>') or (p == 'X' and self.ltl):
            self.next()
            return ('un', p, self.unary())
        return self.postfix()
    def postfix(self):
        x = self.primary()
        while True:
            if self.peek() == '.':
                self.next()
                f = self.next()
                x = ('len', x) if f == 'length' else ('field', x, f)
            elif self.peek() == '[':
                self.next(); i = self.expr(); self.expect(']')
                x = ('index', x, i)
            elif self.peek() == 'instanceof':
                self.next(); x = ('instanceof', x, self.next())
            elif self.peek() == '@':
                self.next(); x = ('at', x, self.next())
            else:
                return x
    def primary(self):
        k, v = self.t[self.i]
        if v == '(':
            self.next(); x = self.expr(); self.expect(')'); return x
        if k == 'int':
            self.next(); return ('lit', int(v))
        if k == 'str':
            self.next(); return ('str', v)
        if v in ('true', 'false'):
            self.next(); return ('lit', v == 'true')
        if v == 'null':
            self.next(); return ('lit', None)
        if v in ('lockAvailable', 'hasLock', 'wasNotified', 'threadTerminated'):
            self.next(); self.expect('('); x = self.expr(); self.expect(')')
            return ('builtin', v, x)
        if k == 'id':
            self.next()
            if v in FIXED and self.peek() == '(':
                # a conversion T(e)
                self.next(); x = self.expr(); self.expect(')')
                return ('conv', v, x)
            # predicate forms T[e] @ loc, T[e] : x, T @ loc, T : x (only in predicates)
            if self.inpred and v in self.threadnames:
                inst = None
                if self.peek() == '[':
                    self.next(); inst = self.expr(); self.expect(']')
                if self.accept('@'):
                    return ('loctest', v, inst, self.next())
                self.expect(':')
                return ('remote', v, inst, self.postfix())
            return ('id', v)
        raise SyntaxError('bad expression at %r' % v)
    inpred = False
    threadnames = ()

    def typ(self):
        v = self.next()
        if v in ('boolean', 'int', 'tid'):
            return (v,)
        if v == 'range':
            lo = self.expr(); self.expect('..'); hi = self.expr()
            return ('range', lo, hi)
        if v == 'enum':
            self.expect('{'); cs = []
            while True:
                n = self.next(); val = None
                if self.accept('='):
                    val = self.expr()
                cs.append((n, val))
                if not self.accept(','):
                    break
            self.expect('}')
            return ('enum', cs)
        if v == 'record':
            self.expect('{'); fs = []
            while not self.accept('}'):
                names = [self.next()]
                while self.accept(','):
                    names.append(self.next())
                self.expect(':'); t = self.typ(); self.expect(';')
                for n in names:
                    fs.append((n, t))
            return ('record', fs)
        if v == 'array':
            self.expect('['); n = self.expr(); self.expect(']'); self.expect('of')
            return ('array', n, self.typ())
        if v == 'lock':
            w = self.accept('wait'); r = self.accept('reentrant')
            return ('lock', w, r)
        if v == 'ref':
            t = self.next(); cols = None
            if self.accept('{'):
                cols = [self.next()]
                while self.accept(','):
                    cols.append(self.next())
                self.expect('}')
            return ('ref', t, cols)
        return ('named', v)

    def vardecls(self, stop):
        out = []
        while self.peek() not in stop:
            names = [self.next()]
            while self.accept(','):
                names.append(self.next())
            self.expect(':'); t = self.typ(); init = None
            if self.accept(':='):
                init = self.expr()
            if not self.accept(';'):
                if not self.accept(','):
                    pass
            for n in names:
                out.append((n, t, init))
        return out

    def body(self, kind, name):
        self.expect('(')
        params = self.vardecls((')',))
        self.expect(')')
        result = None
        if kind == 'function' and self.accept(':'):
            result = self.typ()
        locals_ = self.vardecls(('loc',))
        locs = []
        while self.accept('loc'):
            ln = self.next(); self.expect(':'); live = None
            if self.accept('live'):
                self.expect('{'); live = []
                while not self.accept('}'):
                    live.append(self.next()); self.accept(',')
            trs = []
            while self.accept('when'):
                g = self.expr(); self.expect('do'); inv = self.accept('invisible')
                self.expect('{'); acts = []
                while not self.accept('}'):
                    acts.append(self.action())
                if self.accept('goto'):
                    tgt = self.next(); ret = False; rexp = None
                else:
                    self.expect('return'); tgt = None; ret = True; rexp = None
                    if self.peek() != ';':
                        rexp = self.expr()
                self.expect(';')
                trs.append(dict(guard=g, inv=inv, acts=acts, target=tgt, ret=ret, rexp=rexp, src=ln))
            locs.append((ln, live, trs))
        self.expect('end'); self.expect(name); self.expect(';')
        return dict(kind=kind, name=name, params=params, result=result, locals=locals_, locs=locs)

    def action(self):
        p = self.peek()
        if p in ('lock', 'unlock', 'wait', 'unwait', 'notify', 'notifyAll') and self.peek(1) == '(':
            self.next(); self.expect('('); l = self.expr(); self.expect(')'); self.expect(';')
            return ('lockop', p, l)
        if p == 'exit':
            self.next(); self.expect(';'); return ('exit',)
        if p == 'println':
            self.next(); self.expect('('); args = []
            while not self.accept(')'):
                args.append(self.expr()); self.accept(',')
            self.expect(';'); return ('println', args)
        if p in ('assert', 'assume'):
            self.next(); self.expect('('); e = self.expr(); self.expect(')'); self.expect(';')
            return (p, e)
        lhs = None
        if p not in ('start', 'call'):
            lhs = self.postfix(); self.expect(':=')
        p = self.peek()
        if p == 'start':
            self.next()
            if self.accept('('):
                th = self.next(); args = []
                while self.accept(','):
                    args.append(self.expr())
                self.expect(')')
            else:
                th = self.next(); self.expect('('); args = []
                while not self.accept(')'):
                    args.append(self.expr()); self.accept(',')
            self.expect(';'); return ('start', lhs, th, args)
        if p == 'call':
            self.next(); f = self.next(); self.expect('('); args = []
            while not self.accept(')'):
                args.append(self.expr()); self.accept(',')
            self.expect(';'); return ('call', lhs, f, args)
        if p == 'new':
            self.next(); c = self.next(); n = None
            if self.accept('['):
                n = self.expr(); self.expect(']')
            self.expect(';'); return ('new', lhs, c, n)
        if p in ('internChoose', 'externChoose'):
            self.next(); self.expect('('); vals = []
            if self.peek() in ('int', 'range'):
                # the type form (docs/bir.md 13.3); a lone type name is
                # told apart at run time
                t = self.typ(); self.expect(')'); self.expect(';')
                return ('choosetype', lhs, t, p)
            first = self.expr()
            if self.accept('..'):
                hi = self.expr(); self.expect(')'); self.expect(';')
                return ('chooserange', lhs, first, hi, p)
            vals.append(first)
            while self.accept(','):
                vals.append(self.expr())
            self.expect(')'); self.expect(';')
            return ('choose', lhs, vals, p)
        if p == 'forall':
            self.next(); self.expect('('); t = self.next(); self.expect(')'); self.expect(';')
            return ('forall', lhs, t)
        if p == 'reachable':
            self.next(); self.expect('('); e = self.expr(); self.expect(','); t = self.next(); self.expect(')'); self.expect(';')
            return ('reachable', lhs, e, t)
        e = self.expr(); self.expect(';')
        return ('assign', lhs, e)

    def system(self):
        kw = self.next(); assert kw in ('system', 'process')
        name = self.next(); self.expect('('); self.expect(')')
        S = dict(consts={}, types={}, extends={}, cols={}, globals=[], threads={}, funcs={}, preds={}, invariants=[], ltl=[], name=name)
        # pre-scan thread names for predicate parsing
        self.threadnames = set(self.t[j+1][1] for j in range(len(self.t)-1) if self.t[j][1] == 'thread')
        while True:
            p = self.peek()
            if p == 'const':
                self.next(); n = self.next(); self.accept('='); v = self.expr(); self.expect(';')
                S['consts'][n] = v
            elif p in ('main', 'thread'):
                main = self.accept('main'); self.expect('thread'); n = self.next()
                b = self.body('thread', n); b['main'] = main; S['threads'][n] = b
            elif p == 'function':
                self.next(); n = self.next(); S['funcs'][n] = self.body('function', n)
            elif p == 'predicates':
                self.next(); self.inpred = True
                while self.peek() not in ('properties', 'end'):
                    n = self.next(); self.expect('='); S['preds'][n] = self.expr(); self.expect(';')
            elif p == 'properties':
                self.next(); self.inpred = True
                while self.peek() != 'end':
                    k = self.next(); n = self.next(); self.expect(':')
                    if k == 'invariant':
                        S['invariants'].append((n, self.expr()))
                    else:
                        self.ltl = True; S['ltl'].append((n, self.expr())); self.ltl = False
                    self.expect(';')
            elif p == 'end':
                self.next(); self.expect(name); self.expect(';'); break
            else:
                n = self.next()
                if self.accept('='):
                    S['types'][n] = self.typ(); self.expect(';')
                elif self.accept('extends'):
                    S['extends'][n] = self.next(); self.expect(';')
                else:
                    names = [n]
                    while self.accept(','):
                        names.append(self.next())
                    self.expect(':')
                    if self.accept('collection'):
                        size = ('lit', 3)
                        if self.accept('['):
                            size = self.expr(); self.expect(']')
                        self.expect('of'); el = self.next(); self.expect(';')
                        S['cols'][n] = (size, el)
                    else:
                        t = self.typ(); init = None
                        if self.accept(':='):
                            init = self.expr()
                        self.expect(';')
                        for nn in names:
                            S['globals'].append((nn, t, init))
        return S

# ---------------------------------------------------------------- model
class Lock:
    __slots__ = ('owner', 'count', 'waits', 'notified')
    def __init__(self, owner=None, count=0, waits=frozenset(), notified=frozenset()):
        self.owner, self.count, self.waits, self.notified = owner, count, waits, notified
    def key(self): return ('L', self.owner, self.count, tuple(sorted(self.waits)), tuple(sorted(self.notified)))
    def copy(self): return Lock(self.owner, self.count, self.waits, self.notified)

class Model:
    def __init__(self, S, opts):
        self.S = S; self.opts = opts
        self.enums = {}
        for n, t in S['types'].items():
            if t[0] == 'enum':
                o = -1
                for c, v in t[1]:
                    o = self.const(v) if v is not None else o + 1
                    self.enums[c] = o
        self.cvals = {}
        for n in S['consts']:
            self.cvals[n] = self.const(S['consts'][n])
        self.colsize = {c: self.const(s) for c, (s, el) in S['cols'].items()}
        self.colelem = {c: el for c, (s, el) in S['cols'].items()}
        self.tidthread = None
    def const(self, e):
        return self.ev(e, None, None)
    def resolve(self, t):
        while t[0] == 'named':
            if t[1] == 'Object':
                return ('record', [])
            if t[1] in FIXED:
                return ('fixed',) + FIXED[t[1]]
            t = self.S['types'][t[1]]
        return t
    def subtype(self, s, t):
        while True:
            if s == t:
                return True
            if s == 'Object' or s not in self.S['extends']:
                return t == 'Object'
            s = self.S['extends'][s]
    def cols_of(self, t):
        return [c for c, el in self.colelem.items() if self.subtype(el, t)]
    def default(self, t):
        t = self.resolve(t)
        k = t[0]
        if k == 'boolean': return False
        if k in ('int', 'fixed'): return 0
        if k == 'tid' or k == 'ref': return None
        if k == 'range':
            lo, hi = self.const(t[1]), self.const(t[2])
            return 0 if lo <= 0 <= hi else lo
        if k == 'enum':
            return self.enums[t[1][0][0]]
        if k == 'array':
            return [self.default(t[2]) for _ in range(self.const(t[1]))]
        if k == 'lock':
            return Lock()
        if k == 'record':
            return {f: self.default(ft) for f, ft in t[1]}
        raise ValueError(t)
    def check(self, t, v):
        """value v assigned to a location of type t"""
        t = self.resolve(t)
        if t[0] == 'fixed':
            return wrap(t[1], t[2], v)
        if t[0] == 'range':
            lo, hi = self.const(t[1]), self.const(t[2])
            if not (lo <= v <= hi):
                raise BIRError('range', '%d not in %d..%d' % (v, lo, hi))
        elif t[0] == 'int':
            if not (INT_MIN <= v <= INT_MAX):
                raise BIRError('overflow')
        elif t[0] == 'ref' and v is not None:
            cols = t[2] if t[2] is not None else self.cols_of(t[1])
            if v[0] not in cols:
                raise BIRError('cast', 'object of %s into ref %s' % (v[0], t))
        elif t[0] == 'array' and isinstance(v, list):
            return list(v)
        return v

    # --- evaluation. ctx = (state, thread index)
    def is_var(self, n, st, ti):
        fr = st['t'][ti]['frames'][-1] if ti is not None else None
        return (fr is not None and n in fr['vars']) or n in st['g']
    def ev(self, e, st, ti, wrapping=False):
        """the value of e; wrapping: inside a conversion's operand, where + - * and unary - do
        not overflow (the conversion reduces the exact result)"""
        k = e[0]
        if k == 'lit': return e[1]
        if k == 'str': return e[1]
        if k == 'id':
            n = e[1]
            if st is not None:
                fr = st['t'][ti]['frames'][-1] if ti is not None else None
                if fr is not None and n in fr['vars']:
                    return fr['vars'][n]
                if n in st['g']:
                    return st['g'][n]
            if n in self.cvals: return self.cvals[n]
            if n in self.enums: return self.enums[n]
            if n in self.S['preds'] and st is not None:
                return self.ev(self.S['preds'][n], st, ti)
            if n in self.S['consts']: return self.const(self.S['consts'][n])
            raise KeyError(n)
        if k == 'conv':
            bits, signed = FIXED[e[1]]
            return wrap(bits, signed, self.ev(e[2], st, ti, True))
        if k == 'un':
            v = self.ev(e[2], st, ti, wrapping and e[1] in ('-', '+'))
            if e[1] == '!': return not v
            if e[1] == '-': return -v if wrapping else ovf(-v)
            if e[1] == '+': return v
            if e[1] == '~': return ~v
            raise ValueError(e)
        if k == 'bin':
            op = e[1]
            if op == '&&':
                return self.ev(e[2], st, ti) and self.ev(e[3], st, ti)
            if op == '||':
                return self.ev(e[2], st, ti) or self.ev(e[3], st, ti)
            if op == '->':
                return (not self.ev(e[2], st, ti)) or self.ev(e[3], st, ti)
            w = wrapping and op in ('+', '-', '*')
            a = self.ev(e[2], st, ti, w); b = self.ev(e[3], st, ti, w)
            if w:
                return a + b if op == '+' else a - b if op == '-' else a * b
            if op == '<->': return a == b
            if op == '==': return a == b
            if op == '!=': return a != b
            if op == '<': return a < b
            if op == '<=': return a <= b
            if op == '>': return a > b
            if op == '>=': return a >= b
            if op == '+': return ovf(a + b)
            if op == '-': return ovf(a - b)
            if op == '*': return ovf(a * b)
            if op == '&': return a & b
            if op == '|': return a | b
            if op == '^': return a ^ b
            if op in ('<<', '>>'):
                if not (0 <= b <= 63): raise BIRError('shift')
                return a >> b if op == '>>' else wrap(64, True, a << b)
            if op in ('/', '%'):
                if b == 0: raise BIRError('divzero')
                q = abs(a) // abs(b)
                if (a < 0) != (b < 0): q = -q
                return ovf(q) if op == '/' else a - b * q
            raise ValueError(op)
        if k == 'field':
            r = self.ev(e[1], st, ti)
            if r is None: raise BIRError('null')
            return st['h'][r[0]][r[1]][e[2]]
        if k == 'len':
            r = self.ev(e[1], st, ti)
            if isinstance(r, list): return len(r)
            if r is None: raise BIRError('null')
            return len(st['h'][r[0]][r[1]])
        if k == 'index':
            a = self.ev(e[1], st, ti); i = self.ev(e[2], st, ti)
            if a is None: raise BIRError('null')
            if not isinstance(a, list): a = st['h'][a[0]][a[1]]
            if not (0 <= i < len(a)): raise BIRError('index')
            return a[i]
        if k == 'instanceof':
            r = self.ev(e[1], st, ti)
            if r is None: return False
            return self.subtype(self.colelem[r[0]], e[2])
        if k == 'builtin':
            tid = ti + 1
            if e[1] == 'threadTerminated':
                t = self.ev(e[2], st, ti)
                return st['t'][t - 1]['done']
            l = self.ev(e[2], st, ti)
            if e[1] == 'lockAvailable': return l.owner is None or l.owner == tid
            if e[1] == 'hasLock': return l.owner == tid
            if e[1] == 'wasNotified': return any(w[0] == tid for w in l.notified)
        if k == 'loctest':
            inst = self.ev(e[2], st, None) if e[2] is not None else None
            for j, th in enumerate(st['t']):
                if th['name'] == e[1] and (inst is None or inst == j + 1):
                    if th['frames'] and th['frames'][-1]['loc'] == e[3] and th['frames'][-1]['fn'] == e[1]:
                        return True
            return False
        if k == 'remote':
            inst = self.ev(e[2], st, None) if e[2] is not None else None
            for j, th in enumerate(st['t']):
                if th['name'] == e[1] and (inst is None or inst == j + 1):
                    return self.ev(e[3], st, j)
            return False
        raise ValueError(e)

    # lvalues: return (container, key, type)
    def lval(self, e, st, ti):
        k = e[0]
        if k == 'id':
            fr = st['t'][ti]['frames'][-1]
            if e[1] in fr['vars']:
                return fr['vars'], e[1], fr['types'][e[1]]
            return st['g'], e[1], self.gtypes[e[1]]
        if k == 'field':
            r = self.ev(e[1], st, ti)
            if r is None: raise BIRError('null')
            obj = st['h'][r[0]][r[1]]
            rt = self.resolve(('named', self.colelem[r[0]]))
            return obj, e[2], dict(rt[1])[e[2]]
        if k == 'index':
            i = self.ev(e[2], st, ti)
            x = e[1]
            if x[0] == 'id' or x[0] == 'field' or x[0] == 'index':
                v = self.ev(x, st, ti)
                if v is None: raise BIRError('null')
                if isinstance(v, list):
                    c, key, t = self.lval(x, st, ti)
                    arr = c[key]
                    et = self.resolve(t)[2]
                else:
                    arr = st['h'][v[0]][v[1]]
                    et = self.resolve(('named', self.colelem[v[0]]))[2]
                if not (0 <= i < len(arr)): raise BIRError('index')
                return arr, i, et
        raise ValueError(e)

    def assign(self, lhs, v, st, ti):
        c, key, t = self.lval(lhs, st, ti)
        c[key] = self.check(t, v)

    # ------------------------------------------------------------ states
    def initial(self):
        self.gtypes = {n: t for n, t, i in self.S['globals']}
        st = {'g': {}, 'h': {c: [] for c in self.S['cols']}, 't': []}
        for n, t, init in self.S['globals']:
            st['g'][n] = self.check(t, self.const(init)) if init is not None else self.default(t)
        for n, th in self.S['threads'].items():
            if th['main']:
                self.spawn(st, n, [])
        return st

    def newframe(self, body, args, st):
        vars_ = {}; types = {}
        for (n, t, _), a in zip(body['params'], args):
            vars_[n] = self.check(t, a); types[n] = t
        for n, t, init in body['locals']:
            vars_[n] = self.check(t, self.ev(init, st, None)) if init is not None else self.default(t)
            types[n] = t
        fr = {'fn': body['name'], 'isfn': body['kind'] == 'function', 'loc': body['locs'][0][0], 'vars': vars_, 'types': types, 'ret': None}
        return fr

    def spawn(self, st, name, args):
        if len(st['t']) >= 16:
            raise Limit('too many threads')
        body = self.S['threads'][name]
        fr = self.newframe(body, args, st)
        st['t'].append({'name': name, 'frames': [fr], 'done': False})
        if not self.opts.get('noresetinit'):
            self.arrive(st, len(st['t']) - 1)
        return len(st['t'])

    def body(self, fr):
        return self.S['funcs'][fr['fn']] if fr['isfn'] else self.S['threads'][fr['fn']]

    def locinfo(self, fr):
        b = self.body(fr)
        for ln, live, trs in b['locs']:
            if ln == fr['loc']:
                return live, trs
        raise KeyError(fr['loc'])

    def arrive(self, st, ti):
        th = st['t'][ti]
        fr = th['frames'][-1]
        live, trs = self.locinfo(fr)
        if live is not None:
            for n in fr['vars']:
                if n not in live and not (self.opts.get('paramslive') and n in [p[0] for p in self.body(fr)['params']]):
                    fr['vars'][n] = self.default(fr['types'][n])
        if not trs and len(th['frames']) == 1:
            th['done'] = True

    def key(self, st):
        def k(v):
            if isinstance(v, Lock): return v.key()
            if isinstance(v, list): return tuple(k(x) for x in v)
            if isinstance(v, dict): return tuple((a, k(b)) for a, b in sorted(v.items()))
            return v
        ths = tuple((t['name'], t['done'], tuple((f['fn'], f['loc'], k(f['vars']), str(f['ret'])) for f in t['frames'])) for t in st['t'])
        return (k(st['g']), tuple((c, k(objs)) for c, objs in sorted(st['h'].items())), ths)

    # returns list of outcomes ('ok', st) / ('err', kind, msg) / ('limit', msg)
    def run_tr(self, st, ti, tr):
        outs = []
        self.go_safe(deepcopy(st), ti, tr, 0, outs)
        return outs

    def go_safe(self, st, ti, tr, i, outs):
        if i == len(tr['acts']):
            try:
                self.finish(st, ti, tr)
            except BIRError as e:
                outs.append(('err', e.kind, e.msg)); return
            except Limit as e:
                outs.append(('limit', e.msg)); return
            outs.append(('ok', st)); return
        a = tr['acts'][i]
        try:
            res = list(self.act(st, ti, a))
        except BIRError as e:
            outs.append(('err', e.kind, e.msg + ' at %s' % (a,))); return
        except Limit as e:
            outs.append(('limit', e.msg)); return
        for s2 in res:
            if a[0] == 'exit':
                outs.append(('ok', s2)); continue
            if a[0] == 'call':
                outs.append(('ok', s2)); continue
            self.go_safe(s2, ti, tr, i + 1, outs)

    def finish(self, st, ti, tr):
        th = st['t'][ti]
        if th['done']:
            return
        fr = th['frames'][-1]
        if tr['ret']:
            v = self.ev(tr['rexp'], st, ti) if tr['rexp'] is not None else None
            rt = self.body(fr)['result']
            if v is not None and rt is not None:
                v = self.check(rt, v)  # stored in the result type: checked, or wrapped
            th['frames'].pop()
            caller = th['frames'][-1]
            lhs, target = fr['ret']
            if lhs is not None:
                self.assign(lhs, v, st, ti)
            caller['loc'] = target
            self.arrive(st, ti)
        else:
            fr['loc'] = tr['target']
            self.arrive(st, ti)

    def act(self, st, ti, a):
        """yields successor states (mutating copies)"""
        k = a[0]; tid = ti + 1
        if k == 'assign':
            self.assign(a[1], self.ev(a[2], st, ti), st, ti); yield st
        elif k == 'assert':
            if not self.ev(a[1], st, ti): raise BIRError('assert')
            yield st
        elif k == 'assume':
            if self.ev(a[1], st, ti): yield st
        elif k == 'println':
            yield st
        elif k in ('choose', 'chooserange', 'choosetype'):
            t = None
            if k == 'choosetype':
                t = a[2]
            elif k == 'choose' and len(a[2]) == 1 and a[2][0][0] == 'id' and \
                    (a[2][0][1] in self.S['types'] or a[2][0][1] in FIXED) and not self.is_var(a[2][0][1], st, ti):
                t = ('named', a[2][0][1])
            if t is not None:
                t = self.resolve(t)
                if t[0] == 'int':
                    lo, hi = INT_MIN, INT_MAX
                elif t[0] == 'fixed':
                    lo, hi = (-(1 << (t[1] - 1)), (1 << (t[1] - 1)) - 1) if t[2] else (0, (1 << t[1]) - 1)
                else:
                    lo, hi = self.const(t[1]), self.const(t[2])
                if hi - lo >= 1 << 20:
                    raise ValueError('a choice among more than 2^20 values')
                vals = list(range(lo, hi + 1))
            elif k == 'choose':
                vals = [self.ev(v, st, ti) for v in a[2]]
            else:
                vals = list(range(self.ev(a[2], st, ti), self.ev(a[3], st, ti) + 1))
            for v in vals:
                s2 = deepcopy(st); self.assign(a[1], v, s2, ti); yield s2
        elif k == 'new':
            col = a[2]
            if len(st['h'][col]) >= self.colsize[col]:
                raise Limit('collection %s full' % col)
            et = self.resolve(('named', self.colelem[col]))
            if et[0] == 'array':
                n = self.ev(a[3], st, ti)
                if not (0 <= n <= self.const(et[1])): raise BIRError('index', 'array length')
                obj = [self.default(et[2]) for _ in range(n)]
            else:
                obj = self.default(('named', self.colelem[col]))
            st['h'][col].append(obj)
            self.assign(a[1], (col, len(st['h'][col]) - 1), st, ti); yield st
        elif k == 'forall' or k == 'reachable':
            if k == 'forall':
                cands = [(c, i) for c in self.cols_of(a[2]) for i in range(len(st['h'][c]))]
            else:
                start = self.ev(a[2], st, ti)
                seen = set(); todo = [start] if start is not None else []
                while todo:
                    r = todo.pop()
                    if r in seen: continue
                    seen.add(r)
                    obj = st['h'][r[0]][r[1]]
                    vals = obj.values() if isinstance(obj, dict) else obj
                    for v in vals:
                        if isinstance(v, tuple) and len(v) == 2 and v[0] in self.colelem:
                            todo.append(v)
                if not self.opts.get('reachnoself'):
                    pass
                else:
                    seen.discard(start)
                cands = sorted(r for r in seen if self.subtype(self.colelem[r[0]], a[3]))
            if not cands:
                yield st
            for r in cands:
                s2 = deepcopy(st); self.assign(a[1], r, s2, ti); yield s2
        elif k == 'lockop':
            op = a[1]
            c, key, t = self.lval(a[2], st, ti)
            l = c[key].copy(); c[key] = l
            lt = self.resolve(t)
            if op == 'lock':
                if l.owner is None:
                    l.owner, l.count = tid, 1
                elif l.owner == tid:
                    if not lt[2]:
                        return  # non-reentrant relock: blocked
                    l.count += 1
                    if l.count > 255: raise Limit('reentrancy')
                else:
                    return  # disabled
                yield st
            elif op == 'unlock':
                if l.owner != tid: raise BIRError('monitor', 'unlock')
                l.count -= 1
                if l.count == 0: l.owner = None
                yield st
            elif op == 'wait':
                if l.owner != tid: raise BIRError('monitor', 'wait')
                l.waits = l.waits | {(tid, l.count)}
                l.owner, l.count = None, 0
                yield st
            elif op == 'unwait':
                mine = [w for w in l.notified if w[0] == tid]
                if l.owner is not None or not mine:
                    return
                l.notified = l.notified - {mine[0]}
                l.owner, l.count = tid, mine[0][1]
                yield st
            elif op == 'notify':
                if l.owner != tid: raise BIRError('monitor', 'notify')
                if not l.waits:
                    yield st
                else:
                    for w in sorted(l.waits):
                        s2 = deepcopy(st)
                        c2, key2, _ = self.lval(a[2], s2, ti)
                        l2 = c2[key2]
                        l2.waits = l2.waits - {w}; l2.notified = l2.notified | {w}
                        yield s2
            elif op == 'notifyAll':
                if l.owner != tid: raise BIRError('monitor', 'notifyAll')
                l.notified = l.notified | l.waits; l.waits = frozenset()
                yield st
        elif k == 'start':
            args = [self.ev(x, st, ti) for x in a[3]]
            t = self.spawn(st, a[2], args)
            if a[1] is not None:
                self.assign(a[1], t, st, ti)
            yield st
        elif k == 'exit':
            st['t'][ti]['done'] = True
            yield st
        elif k == 'call':
            th = st['t'][ti]
            if len(th['frames']) >= 64:
                raise Limit('call depth')
            args = [self.ev(x, st, ti) for x in a[3]]
            body = self.S['funcs'][a[2]]
            fr = self.newframe(body, args, st)
            # the caller's transformation ends with goto L: remember it
            fr['ret'] = (a[1], self._cur_target)
            th['frames'].append(fr)
            self.arrive(st, ti)
            yield st
        else:
            raise ValueError(a)

    def thread_succs(self, st, ti):
        """one transformation of thread ti: list of (invisible, outcome)"""
        th = st['t'][ti]
        if th['done']:
            return []
        fr = th['frames'][-1]
        live, trs = self.locinfo(fr)
        res = []
        for tr in trs:
            try:
                g = self.ev(tr['guard'], st, ti)
            except BIRError as e:
                res.append((False, ('err', e.kind, 'guard: ' + e.msg)))
                continue
            except Limit as e:
                res.append((False, ('limit', 'guard: ' + e.msg)))
                continue
            if not g:
                continue
            self._cur_target = tr['target']
            for o in self.run_tr(st, ti, tr):
                res.append((tr['inv'], o))
        return res

    def succs(self, st):
        """stored successors of st, following invisible sequences"""
        out = []
        for ti in range(len(st['t'])):
            stack = [st]
            while stack:
                s = stack.pop()
                for inv, o in self.thread_succs(s, ti):
                    if o[0] != 'ok' or not inv:
                        out.append(o); continue
                    s2 = o[1]
                    if self.thread_succs_nonempty(s2, ti):
                        stack.append(s2)
                    else:
                        out.append(o)
        return out

    def thread_succs_nonempty(self, st, ti):
        return len(self.thread_succs(st, ti)) > 0


def ovf(v):
    if not (INT_MIN <= v <= INT_MAX):
        raise BIRError('overflow')
    return v

def deepcopy(st):
    def c(v):
        if isinstance(v, Lock): return v.copy()
        if isinstance(v, list): return [c(x) for x in v]
        if isinstance(v, dict): return {a: c(b) for a, b in v.items()}
        return v
    return c(st)

def main():
    path = sys.argv[1]
    opts = {'nodeadlock': '--no-deadlock' in sys.argv, 'noresetinit': '--no-reset-initial' in sys.argv,
            'paramslive': '--params-always-live' in sys.argv, 'reachnoself': '--reach-noself' in sys.argv}
    S = P(lex(open(path).read())).system()
    M = Model(S, opts)
    s0 = M.initial()
    seen = {M.key(s0): 0}
    graph = {0: []}
    q = deque([s0])
    states = [s0]
    errors = []; limits = 0; deadlocks = []; trans = 0
    while q:
        st = q.popleft()
        sid = seen[M.key(st)]
        for name, inv in S['invariants']:
            try:
                if not M.ev(inv, st, None):
                    errors.append(('invariant ' + name, ''))
            except BIRError as e:
                errors.append(('invariant-eval ' + name, e.kind))
        outs = M.succs(st)
        if not outs:
            if any(not t['done'] for t in st['t']):
                deadlocks.append(st)
        for o in outs:
            trans += 1
            if o[0] == 'err':
                errors.append((o[1], o[2])); continue
            if o[0] == 'limit':
                limits += 1; continue
            k = M.key(o[1])
            if k not in seen:
                seen[k] = len(seen); graph[seen[k]] = []; q.append(o[1])
            graph[sid].append(seen[k])
        if len(seen) > 2000000:
            print('too many states'); break
    # cycle detection
    color = {}
    cyc = False
    sys.setrecursionlimit(100000)
    for s in graph:
        if s in color: continue
        stack = [(s, iter(graph[s]))]; color[s] = 1
        while stack:
            n, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                color[n] = 2; stack.pop(); continue
            if color.get(nxt) == 1: cyc = True
            elif nxt not in color:
                color[nxt] = 1; stack.append((nxt, iter(graph[nxt])))
    kinds = sorted(set(e[0] for e in errors))
    print('%s: states=%d transitions=%d errors=%s deadlocks=%d limits=%d cyclic=%s' % (path, len(seen), trans, kinds, len(deadlocks), limits, cyc))
    for e in errors[:3]:
        print('   error', e)
    if deadlocks:
        d = deadlocks[0]
        print('   deadlock:', [(t['name'], t['frames'][-1]['loc'] if t['frames'] else None, t['done']) for t in d['t']])

if __name__ == '__main__':
    main()

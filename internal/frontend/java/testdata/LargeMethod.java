import gov.nasa.jpf.vm.Verify;

// A method of some thousands of bytecode instructions (generated: loops,
// branches, switches, int and long arithmetic, static fields), for the
// lowering's speed (BenchmarkLowerLarge, docs/performance.md).
public class LargeMethod {
    static int shared;
    static long acc;

    static int big(int a, int b) {
        int c = a + 1, d = b - 1, e = 3, f = 5, g = 7, h = 11;
        long z = 13;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        for (int i1 = 0; i1 < 2; i1++) { g += i1 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 3;
        a = a * 31 + b + 4;
        z = z * 7 + (a >>> 3) - (long) e * 5;
        for (int i6 = 0; i6 < 2; i6++) { g += i6 * h; }
        switch ((a + 7) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 8) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 9;
        for (int i10 = 0; i10 < 2; i10++) { g += i10 * h; }
        if (c > d + 1) { e = e ^ a; } else { f = f - 3; }
        shared += (g & 15) + 12;
        if (c > d + 3) { e = e ^ a; } else { f = f - 2; }
        for (int i14 = 0; i14 < 2; i14++) { g += i14 * h; }
        switch ((a + 15) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 16;
        if (c > d + 2) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 18;
        switch ((a + 19) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 20;
        a = a * 31 + b + 21;
        a = a * 31 + b + 22;
        shared += (g & 15) + 23;
        switch ((a + 24) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 25) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 26;
        z = z * 7 + (a >>> 3) - (long) e * 27;
        shared += (g & 15) + 28;
        shared += (g & 15) + 29;
        switch ((a + 30) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i31 = 0; i31 < 2; i31++) { g += i31 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 33;
        if (c > d + 4) { e = e ^ a; } else { f = f - 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 36;
        z = z * 7 + (a >>> 3) - (long) e * 37;
        for (int i38 = 0; i38 < 2; i38++) { g += i38 * h; }
        shared += (g & 15) + 39;
        if (c > d + 0) { e = e ^ a; } else { f = f - 2; }
        z = z * 7 + (a >>> 3) - (long) e * 41;
        if (c > d + 2) { e = e ^ a; } else { f = f - 1; }
        shared += (g & 15) + 43;
        for (int i44 = 0; i44 < 2; i44++) { g += i44 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 45;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        for (int i48 = 0; i48 < 2; i48++) { g += i48 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 49;
        for (int i50 = 0; i50 < 2; i50++) { g += i50 * h; }
        shared += (g & 15) + 51;
        for (int i52 = 0; i52 < 2; i52++) { g += i52 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 53;
        a = a * 31 + b + 54;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 56) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 1; }
        shared += (g & 15) + 58;
        switch ((a + 59) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 60;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 62) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 63;
        shared += (g & 15) + 64;
        if (c > d + 0) { e = e ^ a; } else { f = f - 3; }
        if (c > d + 1) { e = e ^ a; } else { f = f - 1; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 3) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 69;
        for (int i70 = 0; i70 < 2; i70++) { g += i70 * h; }
        shared += (g & 15) + 71;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 73;
        if (c > d + 4) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 75;
        a = a * 31 + b + 76;
        a = a * 31 + b + 77;
        a = a * 31 + b + 78;
        switch ((a + 79) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 80;
        z = z * 7 + (a >>> 3) - (long) e * 81;
        for (int i82 = 0; i82 < 2; i82++) { g += i82 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 83;
        for (int i84 = 0; i84 < 2; i84++) { g += i84 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 86;
        for (int i87 = 0; i87 < 2; i87++) { g += i87 * h; }
        a = a * 31 + b + 88;
        for (int i89 = 0; i89 < 2; i89++) { g += i89 * h; }
        for (int i90 = 0; i90 < 2; i90++) { g += i90 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 91;
        for (int i92 = 0; i92 < 2; i92++) { g += i92 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 94) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 95;
        if (c > d + 1) { e = e ^ a; } else { f = f - 1; }
        for (int i97 = 0; i97 < 2; i97++) { g += i97 * h; }
        if (c > d + 3) { e = e ^ a; } else { f = f - 3; }
        a = a * 31 + b + 99;
        z = z * 7 + (a >>> 3) - (long) e * 100;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 102;
        shared += (g & 15) + 103;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 106) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 3; }
        for (int i108 = 0; i108 < 2; i108++) { g += i108 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 109;
        if (c > d + 0) { e = e ^ a; } else { f = f - 3; }
        shared += (g & 15) + 111;
        z = z * 7 + (a >>> 3) - (long) e * 112;
        a = a * 31 + b + 113;
        switch ((a + 114) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 0) { e = e ^ a; } else { f = f - 2; }
        switch ((a + 116) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 117;
        a = a * 31 + b + 118;
        shared += (g & 15) + 119;
        switch ((a + 120) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 121) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 122;
        if (c > d + 3) { e = e ^ a; } else { f = f - 1; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 0) { e = e ^ a; } else { f = f - 3; }
        shared += (g & 15) + 126;
        a = a * 31 + b + 127;
        if (c > d + 3) { e = e ^ a; } else { f = f - 3; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        shared += (g & 15) + 130;
        a = a * 31 + b + 131;
        z = z * 7 + (a >>> 3) - (long) e * 132;
        switch ((a + 133) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 134;
        a = a * 31 + b + 135;
        for (int i136 = 0; i136 < 2; i136++) { g += i136 * h; }
        a = a * 31 + b + 137;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 139) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 140) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 1) { e = e ^ a; } else { f = f - 1; }
        a = a * 31 + b + 142;
        a = a * 31 + b + 143;
        for (int i144 = 0; i144 < 2; i144++) { g += i144 * h; }
        switch ((a + 145) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 146;
        if (c > d + 2) { e = e ^ a; } else { f = f - 1; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 149) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i150 = 0; i150 < 2; i150++) { g += i150 * h; }
        if (c > d + 1) { e = e ^ a; } else { f = f - 2; }
        a = a * 31 + b + 152;
        a = a * 31 + b + 153;
        z = z * 7 + (a >>> 3) - (long) e * 154;
        z = z * 7 + (a >>> 3) - (long) e * 155;
        shared += (g & 15) + 156;
        if (c > d + 2) { e = e ^ a; } else { f = f - 2; }
        shared += (g & 15) + 158;
        z = z * 7 + (a >>> 3) - (long) e * 159;
        z = z * 7 + (a >>> 3) - (long) e * 160;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 2) { e = e ^ a; } else { f = f - 1; }
        for (int i163 = 0; i163 < 2; i163++) { g += i163 * h; }
        a = a * 31 + b + 164;
        switch ((a + 165) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 1) { e = e ^ a; } else { f = f - 2; }
        a = a * 31 + b + 167;
        switch ((a + 168) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        for (int i170 = 0; i170 < 2; i170++) { g += i170 * h; }
        shared += (g & 15) + 171;
        switch ((a + 172) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 4) { e = e ^ a; } else { f = f - 1; }
        z = z * 7 + (a >>> 3) - (long) e * 175;
        shared += (g & 15) + 176;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 178) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 179;
        shared += (g & 15) + 180;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        shared += (g & 15) + 182;
        shared += (g & 15) + 183;
        if (c > d + 4) { e = e ^ a; } else { f = f - 2; }
        z = z * 7 + (a >>> 3) - (long) e * 185;
        for (int i186 = 0; i186 < 2; i186++) { g += i186 * h; }
        switch ((a + 187) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 188) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i189 = 0; i189 < 2; i189++) { g += i189 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 192;
        z = z * 7 + (a >>> 3) - (long) e * 193;
        z = z * 7 + (a >>> 3) - (long) e * 194;
        a = a * 31 + b + 195;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        for (int i197 = 0; i197 < 2; i197++) { g += i197 * h; }
        a = a * 31 + b + 198;
        a = a * 31 + b + 199;
        shared += (g & 15) + 200;
        if (c > d + 1) { e = e ^ a; } else { f = f - 1; }
        for (int i202 = 0; i202 < 2; i202++) { g += i202 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 203;
        shared += (g & 15) + 204;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 206) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 1; }
        if (c > d + 3) { e = e ^ a; } else { f = f - 2; }
        shared += (g & 15) + 209;
        a = a * 31 + b + 210;
        for (int i211 = 0; i211 < 2; i211++) { g += i211 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 212;
        shared += (g & 15) + 213;
        z = z * 7 + (a >>> 3) - (long) e * 214;
        a = a * 31 + b + 215;
        if (c > d + 1) { e = e ^ a; } else { f = f - 1; }
        z = z * 7 + (a >>> 3) - (long) e * 217;
        switch ((a + 218) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 220) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 221;
        for (int i222 = 0; i222 < 2; i222++) { g += i222 * h; }
        a = a * 31 + b + 223;
        for (int i224 = 0; i224 < 2; i224++) { g += i224 * h; }
        switch ((a + 225) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 226;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 3) { e = e ^ a; } else { f = f - 1; }
        shared += (g & 15) + 229;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 231) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        shared += (g & 15) + 234;
        a = a * 31 + b + 235;
        if (c > d + 1) { e = e ^ a; } else { f = f - 3; }
        shared += (g & 15) + 237;
        switch ((a + 238) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 239;
        switch ((a + 240) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 241;
        switch ((a + 242) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 243;
        for (int i244 = 0; i244 < 2; i244++) { g += i244 * h; }
        switch ((a + 245) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 246;
        shared += (g & 15) + 247;
        z = z * 7 + (a >>> 3) - (long) e * 248;
        shared += (g & 15) + 249;
        z = z * 7 + (a >>> 3) - (long) e * 250;
        if (c > d + 1) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 252;
        z = z * 7 + (a >>> 3) - (long) e * 253;
        for (int i254 = 0; i254 < 2; i254++) { g += i254 * h; }
        for (int i255 = 0; i255 < 2; i255++) { g += i255 * h; }
        a = a * 31 + b + 256;
        if (c > d + 2) { e = e ^ a; } else { f = f - 3; }
        a = a * 31 + b + 258;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 260) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        switch ((a + 261) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 263;
        shared += (g & 15) + 264;
        switch ((a + 265) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 266;
        switch ((a + 267) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i268 = 0; i268 < 2; i268++) { g += i268 * h; }
        shared += (g & 15) + 269;
        for (int i270 = 0; i270 < 2; i270++) { g += i270 * h; }
        switch ((a + 271) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i272 = 0; i272 < 2; i272++) { g += i272 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        for (int i274 = 0; i274 < 2; i274++) { g += i274 * h; }
        for (int i275 = 0; i275 < 2; i275++) { g += i275 * h; }
        for (int i276 = 0; i276 < 2; i276++) { g += i276 * h; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 2; }
        switch ((a + 278) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 279;
        switch ((a + 280) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        shared += (g & 15) + 282;
        switch ((a + 283) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 285;
        for (int i286 = 0; i286 < 2; i286++) { g += i286 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 287;
        for (int i288 = 0; i288 < 2; i288++) { g += i288 * h; }
        shared += (g & 15) + 289;
        a = a * 31 + b + 290;
        switch ((a + 291) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 2; }
        for (int i293 = 0; i293 < 2; i293++) { g += i293 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 0) { e = e ^ a; } else { f = f - 2; }
        z = z * 7 + (a >>> 3) - (long) e * 296;
        for (int i297 = 0; i297 < 2; i297++) { g += i297 * h; }
        a = a * 31 + b + 298;
        z = z * 7 + (a >>> 3) - (long) e * 299;
        switch ((a + 300) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 301;
        for (int i302 = 0; i302 < 2; i302++) { g += i302 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 303;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 305) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 306;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 308;
        for (int i309 = 0; i309 < 2; i309++) { g += i309 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 312;
        if (c > d + 3) { e = e ^ a; } else { f = f - 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 315;
        shared += (g & 15) + 316;
        switch ((a + 317) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        a = a * 31 + b + 318;
        switch ((a + 319) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 321;
        for (int i322 = 0; i322 < 2; i322++) { g += i322 * h; }
        if (c > d + 3) { e = e ^ a; } else { f = f - 3; }
        for (int i324 = 0; i324 < 2; i324++) { g += i324 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 325;
        if (c > d + 1) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 327;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 330;
        if (c > d + 1) { e = e ^ a; } else { f = f - 2; }
        shared += (g & 15) + 332;
        z = z * 7 + (a >>> 3) - (long) e * 333;
        switch ((a + 334) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        z = z * 7 + (a >>> 3) - (long) e * 335;
        shared += (g & 15) + 336;
        for (int i337 = 0; i337 < 2; i337++) { g += i337 * h; }
        for (int i338 = 0; i338 < 2; i338++) { g += i338 * h; }
        a = a * 31 + b + 339;
        z = z * 7 + (a >>> 3) - (long) e * 340;
        shared += (g & 15) + 341;
        shared += (g & 15) + 342;
        z = z * 7 + (a >>> 3) - (long) e * 343;
        if (c > d + 4) { e = e ^ a; } else { f = f - 3; }
        a = a * 31 + b + 345;
        a = a * 31 + b + 346;
        shared += (g & 15) + 347;
        if (c > d + 3) { e = e ^ a; } else { f = f - 1; }
        a = a * 31 + b + 349;
        if (c > d + 0) { e = e ^ a; } else { f = f - 3; }
        z = z * 7 + (a >>> 3) - (long) e * 351;
        shared += (g & 15) + 352;
        if (c > d + 3) { e = e ^ a; } else { f = f - 3; }
        shared += (g & 15) + 354;
        for (int i355 = 0; i355 < 2; i355++) { g += i355 * h; }
        switch ((a + 356) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 357;
        for (int i358 = 0; i358 < 2; i358++) { g += i358 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 359;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 362;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        a = a * 31 + b + 364;
        z = z * 7 + (a >>> 3) - (long) e * 365;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 367;
        a = a * 31 + b + 368;
        for (int i369 = 0; i369 < 2; i369++) { g += i369 * h; }
        a = a * 31 + b + 370;
        if (c > d + 1) { e = e ^ a; } else { f = f - 3; }
        for (int i372 = 0; i372 < 2; i372++) { g += i372 * h; }
        a = a * 31 + b + 373;
        if (c > d + 4) { e = e ^ a; } else { f = f - 3; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        if (c > d + 1) { e = e ^ a; } else { f = f - 2; }
        if (c > d + 2) { e = e ^ a; } else { f = f - 3; }
        switch ((a + 378) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        for (int i379 = 0; i379 < 2; i379++) { g += i379 * h; }
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        z = z * 7 + (a >>> 3) - (long) e * 381;
        if (c > d + 2) { e = e ^ a; } else { f = f - 2; }
        z = z * 7 + (a >>> 3) - (long) e * 383;
        z = z * 7 + (a >>> 3) - (long) e * 384;
        h = (h % 1000) + (int) (z & 255) - (f > 0 ? f : -f);
        switch ((a + 386) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 387;
        for (int i388 = 0; i388 < 2; i388++) { g += i388 * h; }
        z = z * 7 + (a >>> 3) - (long) e * 389;
        shared += (g & 15) + 390;
        if (c > d + 1) { e = e ^ a; } else { f = f - 2; }
        shared += (g & 15) + 392;
        z = z * 7 + (a >>> 3) - (long) e * 393;
        shared += (g & 15) + 394;
        for (int i395 = 0; i395 < 2; i395++) { g += i395 * h; }
        switch ((a + 396) & 3) { case 0: b++; break; case 1: c--; break; case 2: h = h << 1; break; default: d += 2; }
        shared += (g & 15) + 397;
        shared += (g & 15) + 398;
        if (c > d + 4) { e = e ^ a; } else { f = f - 1; }
        acc = z;
        return a + b + c + d + e + f + g + h;
    }

    public static void main(String[] args) {
        int r = big(Verify.getInt(0, 1), 2);
        System.out.println(r);
    }
}

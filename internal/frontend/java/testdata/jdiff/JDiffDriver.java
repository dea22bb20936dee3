package jdiffdriver;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

// The JVM's side of TestJDiff (jdiff_test.go): reads lines "pkg.Class:1,-2"
// from standard input and calls pkg.Class.run(1, -2) with the classes
// loaded afresh (their static initializers run again, as in each run of
// birch's model), printing "== LINE", what run prints, then "=> RESULT",
// or "!! Exception at line N" for the exception that ends it (its class's
// simple name, the line of its top frame). The class path root is the
// argument. Never lowered itself.
public class JDiffDriver {
    public static void main(String[] args) throws Exception {
        URL[] cp = { new File(args[0]).toURI().toURL() };
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isEmpty()) {
                continue;
            }
            System.out.println("== " + line);
            String[] pv = line.split(":");
            String[] vs = pv[1].split(",");
            Class<?>[] types = new Class<?>[vs.length];
            Object[] values = new Object[vs.length];
            for (int i = 0; i < vs.length; i++) {
                types[i] = int.class;
                values[i] = Integer.parseInt(vs[i]);
            }
            try (URLClassLoader loader = new URLClassLoader(cp, ClassLoader.getPlatformClassLoader())) {
                Method run = Class.forName(pv[0], false, loader).getDeclaredMethod("run", types);
                run.setAccessible(true);
                try {
                    System.out.println("=> " + run.invoke(null, values));
                } catch (InvocationTargetException e) {
                    Throwable t = e.getCause();
                    StackTraceElement[] st = t.getStackTrace();
                    System.out.println("!! " + t.getClass().getSimpleName() + " at line " + (st.length > 0 ? st[0].getLineNumber() : 0));
                }
            }
            System.out.flush();
        }
    }
}

package cli

import (
	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/absgen"
	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// The abstract model of a check with abstraction comes from package absgen.
func init() {
	generateAbstract = func(prog *types.Program, res *infer.Result, cfg data.Config) (*abstractOutput, error) {
		out, err := absgen.Generate(prog, res, absgen.Config{Data: cfg})
		if err != nil {
			return nil, err
		}
		return &abstractOutput{
			Program: out.Program,
			Origin: func(t *ast.Transformation) *ast.Transformation {
				if o := out.Map.Transformation(t); o != nil {
					return o.Transformation
				}
				return nil
			},
			Position: func(p source.Pos) (source.Position, bool) { return out.Map.Position(p) },
		}, nil
	}
}

package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shape a newcomer can open (issue 36): no .go file over 500 lines and
// no function over 80, in every package. Test files count too: a test is
// read to learn what the code promises, and a 600-line test file or a
// 150-line test holds several concerns just as source does (a long table
// becomes a named table beside its test). Generated files are excepted by
// the Go convention's name for them, a "Code generated ... DO NOT EDIT."
// line (go/ast.IsGenerated); testdata/ and hidden folders hold no source.
const (
	maxFileLines = 500
	maxFuncLines = 80
)

func TestNoFileOver500Lines(t *testing.T) {
	for _, f := range sourceFiles(t) {
		if n := bytes.Count(f.src, []byte("\n")); n > maxFileLines {
			t.Errorf("%s has %d lines, at most %d: split it by concern (a file, a concern)", f.path, n, maxFileLines)
		}
	}
}

// A function's lines run from its func keyword to its closing brace;
// function literals count on their own as well as inside their function.
func TestNoFunctionOver80Lines(t *testing.T) {
	for _, f := range sourceFiles(t) {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				body = fn.Body
			case *ast.FuncLit:
				body = fn.Body
			}
			if body == nil {
				return true
			}
			start := f.fset.Position(n.Pos())
			if lines := f.fset.Position(body.Rbrace).Line - start.Line + 1; lines > maxFuncLines {
				t.Errorf("%s: function %s has %d lines, at most %d: name its steps", start, funcName(n), lines, maxFuncLines)
			}
			return true
		})
	}
}

type sourceFile struct {
	path string
	src  []byte
	fset *token.FileSet
	ast  *ast.File
}

// sourceFiles are the module's .go files but generated ones and those under
// third_party, a dependency's code copied in to be patched
// (third_party/README.md), which keeps its authors' shape.
func sourceFiles(t *testing.T) []sourceFile {
	t.Helper()
	fset := token.NewFileSet()
	var files []sourceFile
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && (d.Name() == "testdata" || d.Name() == "third_party" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go"):
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if !ast.IsGenerated(f) {
			files = append(files, sourceFile{path, src, fset, f})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func funcName(n ast.Node) string {
	fn, ok := n.(*ast.FuncDecl)
	if !ok {
		return "literal"
	}
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	if generic, ok := recv.(*ast.IndexExpr); ok {
		recv = generic.X
	}
	if id, ok := recv.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

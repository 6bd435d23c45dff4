package picture_test

import (
	"fmt"
	"image/color"
	"io"
	"time"

	"tpsrace/picture"
)

// A film of two frames of a 20×2 terminal, written as a GIF: the frames'
// ANSI text in time order, then the end.
func ExampleFilm() {
	film, err := picture.NewFilm(picture.Options{Cols: 20, Rows: 2, Width: 320, Height: 80, FPS: 10,
		Background: color.Black, Foreground: color.White})
	if err != nil {
		panic(err)
	}
	film.Add(0, "\x1b[1mtpsrace\x1b[0m racing\n⣀⣤⣶⣿ 12 tok/s")
	film.Add(500*time.Millisecond, "\x1b[1mtpsrace\x1b[0m finished\n⣀⣤⣶⣿⣿⣿ 1,889 tok/s")
	film.End(3 * time.Second)
	if err := film.WriteGIF(io.Discard); err != nil {
		panic(err)
	}
	fmt.Println(film.Scenes(), "scenes,", film.Length())
	// Output: 2 scenes, 3s
}

module github.com/drape3d/drape

go 1.26.8

require (
	github.com/g3n/engine v0.2.1-0.20260801162305-83026d7a1228 // indirect
	github.com/go-gl/mathgl v1.2.0 // indirect
)

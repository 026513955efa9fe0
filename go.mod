module github.com/drape3d/drape

go 1.26.0

require (
	github.com/g3n/engine v0.2.1-0.20260801162305-83026d7a1228
	github.com/go-gl/mathgl v1.2.0
	github.com/qmuntal/gltf v0.28.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20250301202403-da16c1255728 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/image v0.0.0-20210607152325-775e3b0c77b9 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)

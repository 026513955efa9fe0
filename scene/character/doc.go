// Package character loads glTF characters for drape's cloth and hair: it
// reads a skinned .gltf or .glb file safely, plays its animations, finds
// its bones by the usual naming schemes, and fits a cape (scene.CapeSettings,
// its body capsules covering the skinned mesh) and hair (scene.HairSettings,
// rooted on the head's mesh around a head sphere inside it) to its skeleton
// and mesh.
//
// Load reads the file only inside its own folder and checks every size
// before it allocates (GLTFLimits), cleans what g3n's loader cannot take
// (material extensions it refuses fall back to the base color and texture;
// morph-target weights channels are skipped; sparse accessors are
// expanded), and plays the clips with its own sampler (step, linear and
// cubic-spline keys; safe on the last keyframe). Draco, meshopt and basisu
// compression are refused with an error.
//
// Every size it derives is in meters of world space, whatever the
// armature's scale (a Mixamo rig's 0.01 armature with bones in
// centimeters, or a bone scaled 58 times): colliders, anchors and the head
// sphere sit on unit-scale scene.Mounts of their bones. Each derived value
// is a field of the returned settings that can be changed before
// scene.NewCape or scene.NewHeadHair.
//
// Each frame: Character.Update (the animation and the world matrices),
// then the scene.Driver (pins and colliders follow the bones, the World
// steps).
//
// # Errors
//
// Loading returns an error that names the file and the field at fault and
// never panics on a bad file. Fitting returns errors that name the setting
// (CapeFit.Anchors, HairFit.Bone, ...) and the bone names the file has.
package character

package scene

import "testing"

func TestBoneKey(t *testing.T) {
	for _, c := range []struct {
		name string
		side byte
		base string
	}{
		{"Neck", 0, "neck"}, {"neck", 0, "neck"}, {"mixamorig:Neck", 0, "neck"}, {"mixamorig_Neck", 0, "neck"},
		{"ShoulderL", 'L', "shoulder"}, {"LeftShoulder", 'L', "shoulder"}, {"shoulder.L", 'L', "shoulder"},
		{"mixamorig:LeftShoulder", 'L', "shoulder"}, {"shoulder_r", 'R', "shoulder"}, {"R_Shoulder", 'R', "shoulder"},
		{"Bip01 L Clavicle", 'L', "bip01clavicle"}, {"UpperArmR", 'R', "upperarm"}, {"Spine1", 0, "spine1"},
		{"mixamorig1:RightUpLeg", 'R', "upleg"}, {"Hips", 0, "hips"}, {"Head_1", 0, "head1"},
	} {
		s, b := BoneKey(c.name)
		if s != c.side || b != c.base {
			t.Errorf("BoneKey(%q) = %q, %q; want %q, %q", c.name, s, b, c.side, c.base)
		}
	}
}

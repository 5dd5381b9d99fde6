package extract

import (
	"path"

	"github.com/knowing-dev/knowing/snapshot"
)

// declare creates package, file and symbol nodes and their qualified names.
func (r *resolver) declare() {
	r.fileID = make([]uint32, len(r.files))
	r.symID = make([][]uint32, len(r.files))
	// A symbol's qualified name and flags depend on its file alone: they
	// are worked out on all cores, and the nodes added in file order.
	qns := make([][]string, len(r.files))
	flagss := make([][]snapshot.Flags, len(r.files))
	clear := nameRoles(r.files)
	onAllCores(len(r.files), func() func(int) {
		return func(fi int) { qns[fi], flagss[fi] = symbolNames(r.files[fi], clear) }
	})
	for fi, f := range r.files {
		fileFlags := roleFlags(f, clear)
		if f.Package != "" {
			if _, ok := r.pkgNode[f.Package]; !ok {
				r.pkgNode[f.Package] = r.addNode(snapshot.Node{
					Name: LastPart(f.Package), QName: f.Package, Kind: snapshot.KindPackage,
					Lang: f.Lang, File: -1, Flags: f.Flags & (snapshot.FlagVendored | snapshot.FlagGenerated),
				}, -1, -1)
			}
		}
		r.g.Files = append(r.g.Files, snapshot.File{Path: f.Path, Lang: f.Lang, Flags: fileFlags, Size: uint64(f.Size), ModTime: f.ModTime, Hash: f.Hash})
		fid := r.addNode(snapshot.Node{
			Name: path.Base(f.Path), QName: f.Path, Kind: snapshot.KindFile, Lang: f.Lang,
			Flags: fileFlags, File: int32(fi), StartLine: 1,
		}, int32(fi), -1)
		r.fileID[fi] = fid
		if f.Package != "" {
			r.contain(r.pkgNode[f.Package], fid)
		}
		ids := make([]uint32, len(f.Symbols))
		qn, flags := qns[fi], flagss[fi]
		for si := range f.Symbols {
			s := &f.Symbols[si]
			ids[si] = r.addNode(snapshot.Node{
				Name: s.Name, QName: qn[si], Kind: s.Kind, Lang: f.Lang, Flags: flags[si],
				File: int32(fi), StartLine: s.Start, EndLine: s.End, Signature: s.Signature, Doc: s.Doc, Body: s.Body, Text: s.Text, History: s.History,
			}, int32(fi), int32(si))
			if len(s.Commits) > 0 {
				n := &r.g.Nodes[ids[si]]
				n.Changed, n.Churn = uint16(min(int(s.Commits[0])+1, 0xffff)), uint16(min(len(s.Commits), 0xffff))
			}
		}
		r.symID[fi] = ids
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Parent >= 0 && int(s.Parent) < si {
				r.contain(ids[s.Parent], ids[si])
			} else if s.Receiver == "" {
				r.contain(fid, ids[si])
			}
		}
	}
}

// symbolNames returns the qualified names and flags of f's symbols;
// clear are the file flags that are the project's name (see nameRoles).
func symbolNames(f *FileResult, clear snapshot.Flags) ([]string, []snapshot.Flags) {
	qn := make([]string, len(f.Symbols))
	flags := make([]snapshot.Flags, len(f.Symbols))
	ff := roleFlags(f, clear)
	for si := range f.Symbols {
		s := &f.Symbols[si]
		prefix := f.Package
		if s.Parent >= 0 && int(s.Parent) < si {
			prefix = qn[s.Parent]
		}
		name := s.Name
		if s.Qual != "" {
			name = s.Qual + "." + name
		}
		if prefix != "" {
			qn[si] = prefix + "." + name
		} else {
			qn[si] = name
		}
		fl := ff | s.Flags
		// A double's name flags it in test sources alone (see roles.go).
		test := fl&snapshot.FlagTest != 0
		if test && IsMockName(s.Name) && (s.Kind.IsType() || s.Parent < 0) {
			fl |= snapshot.FlagMock
		}
		if s.Parent >= 0 && int(s.Parent) < si && flags[s.Parent]&snapshot.FlagMock != 0 {
			fl |= snapshot.FlagMock // a member of a double, or of a type nested in one
		}
		flags[si] = fl
	}
	return qn, flags
}

// attachReceivers gives methods declared outside their type (Go) their
// type as parent and qualified-name prefix.
func (r *resolver) attachReceivers() {
	types := map[[2]string]uint32{} // scope, name → type node
	for fi, f := range r.files {
		sc := scopeOf(f)
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Kind.IsType() && s.Parent < 0 {
				types[[2]string{sc, s.Name}] = r.symID[fi][si]
			}
		}
	}
	for fi, f := range r.files {
		if r.inc != nil && includesLang(f) {
			continue // attachMembers: C and C++ receivers are qualified names
		}
		sc := ""
		for si := range f.Symbols {
			s := &f.Symbols[si]
			if s.Receiver == "" || s.Parent >= 0 {
				continue
			}
			if sc == "" {
				sc = scopeOf(f)
			}
			id := r.symID[fi][si]
			if t, ok := types[[2]string{sc, s.Receiver}]; ok {
				r.g.Nodes[id].QName = r.g.Nodes[t].QName + "." + s.Name
				r.contain(t, id)
			} else {
				// The type is not in the repository (or not parsed): keep
				// the receiver in the name and hang the method on the file.
				prefix := f.Package
				if prefix != "" {
					prefix += "."
				}
				r.g.Nodes[id].QName = prefix + s.Receiver + "." + s.Name
				r.contain(r.fileID[fi], id)
			}
		}
	}
}

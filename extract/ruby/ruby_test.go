package ruby_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/knowing-dev/knowing/extract/extracttest"
	"github.com/knowing-dev/knowing/extract/ruby"
	"github.com/knowing-dev/knowing/snapshot"
)

func TestRubyRepo(t *testing.T) {
	b := extracttest.BuildDir(t, "../../testdata/ruby")

	// Qualified names follow module nesting, whether written nested
	// (module Shop; class Cart) or as a path (class Shop::Discount).
	if n := b.Node("Shop"); n.Kind != snapshot.KindModule || n.Doc != "Shop is a tiny store: carts of items, priced with discounts." {
		t.Errorf("Shop: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node("Shop.Cart"); n.Kind != snapshot.KindClass || !strings.HasPrefix(n.Doc, "Cart holds the items a customer is about to buy.") ||
		n.Signature != "class Cart < Base" {
		t.Errorf("Shop.Cart: kind %v doc %q sig %q", n.Kind, n.Doc, n.Signature)
	}
	if n := b.Node("Shop.Discount"); n.Kind != snapshot.KindClass || n.Doc != "A percentage taken off an amount." {
		t.Errorf("Shop.Discount: kind %v doc %q", n.Kind, n.Doc)
	}
	if n := b.Node("Shop.Cart.add"); n.Kind != snapshot.KindMethod || n.Signature != "def add(item)" ||
		n.Doc != "Add an item to the cart." || n.Flags&snapshot.FlagExported == 0 {
		t.Errorf("Shop.Cart.add: %v %q %q %v", n.Kind, n.Signature, n.Doc, n.Flags)
	}
	if n := b.Node("Shop.Cart.initialize"); n.Kind != snapshot.KindConstructor {
		t.Errorf("initialize kind %v", n.Kind)
	}
	if n := b.Node("Shop.Cart.reset!"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("a method after `private` is exported: %v", n.Flags)
	}
	if n := b.Node("Shop.Cart.MAX_ITEMS"); n.Kind != snapshot.KindConstant {
		t.Errorf("MAX_ITEMS kind %v", n.Kind)
	}
	if n := b.Node("Shop.Cart.Item"); n.Kind != snapshot.KindClass {
		t.Errorf("Struct.new constant kind %v", n.Kind)
	}
	if n := b.Node("Shop.Cart.Item.price"); n.Kind != snapshot.KindField {
		t.Errorf("Struct member kind %v", n.Kind)
	}
	if n := b.Node("Shop.Cart.items"); n.Kind != snapshot.KindField {
		t.Errorf("attr_reader kind %v", n.Kind)
	}
	if n := b.Node("Shop.Cart.discount"); n.Kind != snapshot.KindField {
		t.Errorf("@discount kind %v", n.Kind)
	}
	if n := b.Node("Shop.audit"); n.Kind != snapshot.KindMethod || n.Doc != "The shop-wide audit trail." {
		t.Errorf("class << self method: %v %q", n.Kind, n.Doc)
	}
	if n := b.Node("Shop.Pricing.price_of"); n.Signature != "def price_of(_item)" {
		t.Errorf("price_of signature %q", n.Signature)
	}

	// Containment both ways.
	b.Edge("Shop.Cart", "Shop.Cart.add", snapshot.EdgeContains)
	b.Edge("Shop.Cart.add", "Shop.Cart", snapshot.EdgeMemberOf)

	// Across files: a call through an instance variable typed by
	// Discount.new, and the constructor call itself.
	b.Edge("Shop.Cart.checkout", "Shop.Discount.apply", snapshot.EdgeCalls)
	b.Edge("Shop.Cart.initialize", "Shop.Discount.initialize", snapshot.EdgeCalls)
	// Through self, to a method a mixin provides.
	b.Edge("Shop.Cart.checkout", "Shop.Pricing.total_price", snapshot.EdgeCalls)
	// A bare call that resolves to the parent class's method.
	b.Edge("Shop.Cart.add", "Shop.Base.log", snapshot.EdgeCalls)
	// super calls the parent's method of the same name.
	b.Edge("Shop.Cart.initialize", "Shop.Base.initialize", snapshot.EdgeCalls)
	// A chain through a module method whose result type is inferred from
	// its memoised `@audit ||= Audit.new`.
	b.Edge("Shop.Base.log", "Shop.audit", snapshot.EdgeCalls)
	b.Edge("Shop.Base.log", "Shop.Audit.record", snapshot.EdgeCalls)
	// A class reopened in another file sees the methods declared in the
	// first.
	b.Edge("Shop.Cart.restore", "Shop.Cart.add", snapshot.EdgeCalls)
	// Inside a mixin, self calls stay in the mixin.
	b.Edge("Shop.Pricing.total_price", "Shop.Pricing.price_of", snapshot.EdgeCalls)
	// A parameter typed by a YARD tag, and one typed by its name.
	b.Edge("Shop.Report.summarize", "Shop.Cart.checkout", snapshot.EdgeCalls)
	b.Edge("Shop.Cart", "Shop.Report.summarize", snapshot.EdgeTypeHintOf)
	b.Edge("Shop.Report.abandoned", "Shop.Pricing.total_price", snapshot.EdgeCalls)

	// Calls that leave the repository are not guessed onto a repository
	// method of the same name: JSON.generate (a core constant) is not
	// Report#generate, items.size (a core method on an untyped value) is
	// not Report#size.
	b.NoEdge("Shop.Cart.to_json", "Shop.Report.generate", snapshot.EdgeCalls)
	b.NoEdge("Shop.Cart.add", "Shop.Report.size", snapshot.EdgeCalls)

	// Inheritance and mixins.
	b.Edge("Shop.Cart", "Shop.Base", snapshot.EdgeExtends)
	b.Edge("Shop.Cart", "Shop.Base.log", snapshot.EdgeInherits)
	b.Edge("Shop.Cart", "Shop.Pricing", snapshot.EdgeImplements)
	b.Edge("Shop.Cart", "Shop.Pricing.total_price", snapshot.EdgeInherits)
	b.Edge("Shop.Cart.price_of", "Shop.Pricing.price_of", snapshot.EdgeOverrides)
	b.Edge("Shop.Cart.initialize", "Shop.Base.initialize", snapshot.EdgeOverrides)
	// A base class from a gem the project depends on becomes an external
	// node named as Ruby names it.
	b.Edge("TestDiscount", "Minitest.Test", snapshot.EdgeExtends)

	// Tests: RSpec examples typed through let and described_class, and a
	// minitest method through an instance variable set in setup.
	b.Edge("it_adds_items", "Shop.Cart.add", snapshot.EdgeTests)
	b.Edge("Shop.Cart.add", "it_adds_items", snapshot.EdgeTestedBy)
	b.Edge("it_applies_it_at_checkout", "Shop.Cart.checkout", snapshot.EdgeTests)
	b.Edge("TestDiscount.test_apply", "Shop.Discount.apply", snapshot.EdgeTests)
	b.Edge("Shop.Discount.apply", "TestDiscount.test_apply", snapshot.EdgeTestedBy)
	if n := b.Node("it_adds_items"); n.Flags&snapshot.FlagTest == 0 || n.Kind != snapshot.KindFunction ||
		n.Doc != "Shop::Cart #add adds items" {
		t.Errorf("it block: %v %v %q", n.Kind, n.Flags, n.Doc)
	}
	if n := b.Node("TestDiscount.test_apply"); n.Flags&snapshot.FlagTest == 0 {
		t.Errorf("minitest method not flagged: %v", n.Flags)
	}
	if n := b.Node("Shop.Cart"); n.Flags&snapshot.FlagTest != 0 {
		t.Errorf("Shop.Cart flags %v", n.Flags)
	}

	// require "shop/discount" links the file to Shop::Discount.
	b.Edge("lib/shop/cart.rb", "Shop.Discount", snapshot.EdgeImports)
	b.Edge("lib/shop/cart.rb", "Shop.Pricing", snapshot.EdgeImports)
	b.Edge("test/test_discount.rb", "Shop.Discount", snapshot.EdgeImports)
}

func TestIsTestName(t *testing.T) {
	for name, want := range map[string]bool{
		"test_apply": true, "it_adds_items": true, "should_render": true,
		"setup": false, "apply": false, "testing": false,
	} {
		if got := ruby.IsTestName(name); got != want {
			t.Errorf("IsTestName(%q) = %v", name, got)
		}
	}
}

// TestRubyForms covers declarations made by calls and annotations, on
// sources written to a temporary folder.
func TestRubyForms(t *testing.T) {
	dir := t.TempDir()
	src := map[string]string{
		"lib/app/engine.rb": `# frozen_string_literal: true
module App
  Error = Class.new(StandardError)
  Point = Data.define(:x, :y)

  class Engine
    extend Forwardable
    def_delegators :@store, :fetch_row, :rows
    delegate :drain, to: :writer

    # @return [App::Store]
    attr_reader :store

    # @return [App::Writer]
    attr_reader :writer

    def initialize # the store comes later
      @store = Store.new
    end # initialize

    # Starts the engine.
    sig { params(writer: App::Writer).returns(App::Store) }
    def start(writer)
      writer.open
      store
    end

    def runner = App::Runner.new(self)

    alias_method :run, :start

    define_method(:stop) { store.shutdown }

    def helper; end
    private :helper
  end

  class Store
    def fetch_row; end
    def rows; end
    def shutdown; end
  end

  class Writer
    def open; end
    def drain; end
  end

  class Runner
    def initialize(engine); end
  end

  module Util
    module_function

    def pad(s) = s
  end
end
`,
	}
	for p, s := range src {
		full := dir + "/" + p
		if err := os.MkdirAll(path.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := extracttest.BuildDir(t, dir)

	if n := b.Node("App.Error"); n.Kind != snapshot.KindClass {
		t.Errorf("Class.new constant kind %v", n.Kind)
	}
	if n := b.Node("App.Point.x"); n.Kind != snapshot.KindField {
		t.Errorf("Data.define member kind %v", n.Kind)
	}
	if n := b.Node("App.Engine.initialize"); n.Doc != "" {
		t.Errorf("a trailing comment became a doc: %q", n.Doc)
	}
	if n := b.Node("App.Engine.start"); n.Doc != "Starts the engine." {
		t.Errorf("start doc %q", n.Doc)
	}
	if n := b.Node("App.Engine.runner"); n.Signature != "def runner" {
		t.Errorf("endless def signature %q", n.Signature)
	}
	if n := b.Node("App.Engine.helper"); n.Flags&snapshot.FlagExported != 0 {
		t.Errorf("private :helper still exported")
	}
	b.Node("App.Util.pad")
	// Forwardable and ActiveSupport delegators are methods calling the
	// target's method.
	b.Edge("App.Engine.fetch_row", "App.Store.fetch_row", snapshot.EdgeCalls)
	b.Edge("App.Engine.drain", "App.Writer.drain", snapshot.EdgeCalls)
	// alias_method and define_method declare methods.
	b.Edge("App.Engine.run", "App.Engine.start", snapshot.EdgeCalls)
	b.Edge("App.Engine.stop", "App.Store.shutdown", snapshot.EdgeCalls)
	// Sorbet parameter types, YARD attribute types.
	b.Edge("App.Engine.start", "App.Writer.open", snapshot.EdgeCalls)
	b.Edge("App.Writer", "App.Engine.start", snapshot.EdgeTypeHintOf)
	b.Edge("App.Engine.runner", "App.Runner.initialize", snapshot.EdgeCalls)
}

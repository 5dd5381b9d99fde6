# frozen_string_literal: true

require "shop"

RSpec.describe Shop::Cart do
  let(:cart) { described_class.new(7) }
  let(:item) { Shop::Cart::Item.new("tea", 4) }

  describe "#add" do
    it "adds items" do
      cart.add(item)
      expect(cart.items.size).to eq(1)
    end
  end

  context "with a discount" do
    it "applies it at checkout" do
      discounted = Shop::Cart.new(8, 50)
      discounted.add(item)
      expect(discounted.checkout).to eq(2)
    end
  end
end

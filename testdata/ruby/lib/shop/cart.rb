# frozen_string_literal: true

require "shop/base"
require "shop/pricing"
require "shop/discount"

module Shop
  # Cart holds the items a customer is about to buy.
  #
  # @example
  #   cart = Shop::Cart.new(1)
  #   cart.add(item)
  class Cart < Base
    include Pricing

    MAX_ITEMS = 50

    Item = Struct.new(:name, :price)

    attr_reader :items

    def initialize(id, discount_percent = 0)
      super(id)
      @items = []
      @discount = Discount.new(discount_percent)
    end

    # Add an item to the cart.
    def add(item)
      raise ArgumentError, "cart is full" if items.size >= MAX_ITEMS

      items << item
      log("added #{item.name}")
      self
    end

    def price_of(item)
      item.price
    end

    # The total after the cart's discount.
    def checkout
      @discount.apply(self.total_price)
    end

    def to_json(*)
      JSON.generate(to_h.merge("items" => items.map(&:to_h)))
    end

    private

    def reset!
      @items = []
    end
  end
end

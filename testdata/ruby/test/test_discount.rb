# frozen_string_literal: true

require "minitest/autorun"
require "shop/discount"

class TestDiscount < Minitest::Test
  def setup
    @discount = Shop::Discount.new(10)
  end

  def test_apply
    assert_equal 90, @discount.apply(100)
  end
end
